/**
 * `read_file` when both the workspace and the attachments read files: the model sees one tool of
 * that name (two tools of one name are refused by model APIs, and the core then leaves its own
 * reader out), which reads the rest of an attached document by `name` and a workspace file by the
 * workspace tool's own input.
 */
import { reader, type Document } from "../../agent/attachments";
import { READ_FILE, type Tool } from "../../agent/types";
import { argsOrEmpty } from "../../protocol/args";

/** The JSON Schema properties of a tool's parameters. */
function propertiesOf(tool: Tool): Record<string, unknown> {
  const properties = tool.parameters.properties;
  return properties && typeof properties === "object" ? (properties as Record<string, unknown>) : {};
}

/**
 * The workspace's `read_file` tool that also reads the `documents` attached in part (a live list:
 * those attached later in the run count too). A call that names an attached document (or a name
 * and no path) reads it; any other goes to the workspace tool.
 */
export function readFileWith(workspace: Tool, documents: Document[]): Tool {
  const attached = reader(documents);
  const properties = { ...propertiesOf(attached), ...propertiesOf(workspace) };
  return {
    ...workspace,
    name: READ_FILE,
    description:
      `${workspace.description} It also reads the rest of a document the person attached that was shown ` +
      `only in part: give its "name" and the "offset" to start at (and "length") instead of a path.`,
    parameters: { type: "object", properties, additionalProperties: false },
    async run(args, signal) {
      // Arguments that cannot be read go to the workspace tool, which says what is wrong.
      const given = argsOrEmpty(args);
      const named = typeof given.name === "string";
      const document = named && documents.some((d) => d.name === given.name);
      if (document || (named && given.path === undefined)) return attached.run(args, signal);
      return workspace.run(args, signal);
    },
  };
}
