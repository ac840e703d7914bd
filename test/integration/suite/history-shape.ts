/** The large history the history phases write and open (history-fill.test, history.test). */
export const HISTORY = {
  items: 100_000,
  conversations: 200,
  /** The title of the conversation number `c` (0 the oldest). */
  title: (c: number) => `History ${c}: the parser`,
  /** The text of the last answer of the conversation number `c`. */
  lastAnswer: (c: number) => `Last answer of history ${c}, marker h${c}x.`,
};
