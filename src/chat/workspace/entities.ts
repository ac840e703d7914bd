/** The named character references pages use most; others are left as written. */

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  ensp: "\u2002",
  emsp: "\u2003",
  thinsp: "\u2009",
  zwnj: "\u200c",
  zwj: "\u200d",
  shy: "\u00ad",
  copy: "©",
  reg: "®",
  trade: "™",
  mdash: "—",
  ndash: "–",
  hellip: "…",
  laquo: "«",
  raquo: "»",
  lsquo: "‘",
  rsquo: "’",
  sbquo: "‚",
  ldquo: "“",
  rdquo: "”",
  bdquo: "„",
  middot: "·",
  bull: "•",
  dagger: "†",
  Dagger: "‡",
  prime: "′",
  Prime: "″",
  euro: "€",
  pound: "£",
  yen: "¥",
  cent: "¢",
  curren: "¤",
  sect: "§",
  para: "¶",
  deg: "°",
  plusmn: "±",
  times: "×",
  divide: "÷",
  minus: "−",
  frac12: "½",
  frac14: "¼",
  frac34: "¾",
  sup1: "¹",
  sup2: "²",
  sup3: "³",
  micro: "µ",
  larr: "←",
  rarr: "→",
  uarr: "↑",
  darr: "↓",
  harr: "↔",
  le: "≤",
  ge: "≥",
  ne: "≠",
  asymp: "≈",
  infin: "∞",
  hearts: "♥",
  check: "✓",
  iexcl: "¡",
  iquest: "¿",
  acute: "´",
  uml: "¨",
  cedil: "¸",
  ordf: "ª",
  ordm: "º",
  not: "¬",
  macr: "¯",
  alpha: "α",
  beta: "β",
  gamma: "γ",
  delta: "δ",
  pi: "π",
  sigma: "σ",
  mu: "μ",
  lambda: "λ",
  Omega: "Ω",
};

// Latin letters with marks, as their names say: &eacute; é, &Uuml; Ü, &ccedil; ç, &aring; å …
const MARKS: Record<string, string> = {
  acute: "\u0301",
  grave: "\u0300",
  circ: "\u0302",
  uml: "\u0308",
  tilde: "\u0303",
  ring: "\u030a",
  cedil: "\u0327",
};

/** The character a named reference stands for, or undefined when the name is not known. */
export function entity(name: string): string | undefined {
  const known = NAMED[name];
  if (known !== undefined) return known;
  const letter = /^([a-zA-Z])(acute|grave|circ|uml|tilde|ring|cedil)$/.exec(name);
  if (letter) return (letter[1] + MARKS[letter[2]]).normalize("NFC");
  if (name === "szlig") return "ß";
  if (name === "aelig") return "æ";
  if (name === "AElig") return "Æ";
  if (name === "oslash") return "ø";
  if (name === "Oslash") return "Ø";
  return undefined;
}
