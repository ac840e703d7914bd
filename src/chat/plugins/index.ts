/** The plugins room's door: what the rest of src uses from src/chat/plugins/. */
export { AgentPlugins } from "./set";
