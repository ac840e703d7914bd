/** Scripted models: turns given in order, for tests and examples that need no network. */
import type { Call, Model, Piece, Request, Turn } from "./types";

/** One scripted turn, or a function of the request that gives it. */
export type Script = Turn | ((request: Request) => Turn | Promise<Turn>);

/** A scripted model, with the requests it was asked. */
export interface ScriptedModel extends Model {
  requests: Request[];
}

/** A turn that says `text`. */
export function says(text: string): Turn {
  return { text, reasoning: "", calls: [], details: [], tokens: 0, input: 0, window: 0 };
}

/** A turn that calls tools, each given as [name, arguments' JSON text], with ids call_0, call_1… */
export function calls(named: [name: string, args: string][]): Turn {
  const made: Call[] = named.map(([name, args], i) => ({ id: `call_${i}`, name, arguments: args }));
  return { ...says(""), calls: made };
}

/** Splits `text` into pieces of at most `bytes` UTF-8 bytes, never inside a character. */
export function pieces(text: string, bytes = 4): string[] {
  const out: string[] = [];
  let piece = "";
  let size = 0;
  for (const char of text) {
    const n = Buffer.byteLength(char);
    if (size + n > bytes && piece) {
      out.push(piece);
      piece = "";
      size = 0;
    }
    piece += char;
    size += n;
  }
  if (piece) out.push(piece);
  return out;
}

/**
 * A model that gives `turns` in order, one a request, its reasoning, text and calls' arguments in
 * pieces of at most 4 bytes. A false from `each` ends the turn with what was given so far; a request past the last
 * turn fails. Tokens are estimated (4 bytes a token) when the turn does not give them.
 */
export function scripted(turns: Script[], name = "scripted"): ScriptedModel {
  const requests: Request[] = [];
  return {
    name,
    requests,
    async turn(request, each) {
      const index = requests.length;
      requests.push({ ...request, messages: [...request.messages] });
      const script = turns[index];
      if (script === undefined) throw new Error(`the scripted model has no turn ${index + 1}`);
      const turn = typeof script === "function" ? await script(request) : script;
      const given = { reasoning: "", text: "" };
      const flow = async (kind: "reasoning" | "text", text: string): Promise<boolean> => {
        for (const part of pieces(text)) {
          if (request.signal?.aborted) return false;
          given[kind] += part;
          const piece: Piece = { kind, text: part };
          if (each(piece) === false) return false;
        }
        return true;
      };
      // A call's arguments stream too (as a run counts them), after the text.
      const argued = async (): Promise<boolean> => {
        for (const call of turn.calls)
          for (const part of pieces(call.arguments)) {
            if (request.signal?.aborted) return false;
            if (each({ kind: "arguments", name: call.name, text: part }) === false) return false;
          }
        return true;
      };
      const whole =
        (await flow("reasoning", turn.reasoning)) && (await flow("text", turn.text)) && (await argued());
      return {
        text: given.text,
        reasoning: given.reasoning,
        calls: whole ? turn.calls : [],
        details: turn.details,
        tokens:
          turn.tokens || estimate(given.reasoning + given.text + turn.calls.map((c) => c.arguments).join("")),
        input: turn.input || estimate(JSON.stringify(request.messages) + request.instructions),
        window: turn.window,
        ...(turn.cached ? { cached: turn.cached } : {}),
      };
    },
  };
}

function estimate(text: string): number {
  return Math.ceil(Buffer.byteLength(text) / 4);
}
