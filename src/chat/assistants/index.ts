/** The assistants room's door: what the rest of src uses from src/chat/assistants/. */
export { asRepository, readAssistantFiles, REPOSITORY } from "./assistant-files";
export { inPlayOf, instructionsText, notesOf, requestInstructions } from "./instructions-text";
export { instructionLimits, readInstructions } from "./instructions";
export type { InstructionFile, Instructions } from "./instructions";
export { PERSON, personAssistant, PersonAssistants } from "./person";
export {
  IgnoredReports,
  PERSON_ONLY,
  personSettingsIn,
  personValue,
  setByWorkspace,
  stricterLimit,
} from "./person-settings";
export type { Ignored, PersonSetting } from "./person-settings";
export { loadSkill, readFolderSkills, readSkills } from "./skills";
export { promptNamed, promptPlaces, PROMPT_FOLDERS, readPromptPlaces, slashCommand } from "./prompt-files";
export type { PromptFile, PromptFiles, PromptPlace } from "./prompt-files";
export { narrowed, usePrompt } from "./prompt-use";
export type { PromptTools, PromptUse, PromptVariables } from "./prompt-use";
