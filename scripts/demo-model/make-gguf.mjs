// Writes a tiny LLaMA-architecture model in the GGUF format: 2 layers, a few hundred tokens (bytes plus
// some words), ChatML template, random weights. A real inference runtime loads and runs it; what it writes
// would be gibberish, so grammar.mjs holds it to the words of its vocabulary, and `npm start` labels it a
// demo. About half a megabyte; made in milliseconds.
import { writeFileSync } from "node:fs";
import { WORDS } from "./grammar.mjs";

const T = { U32: 4, I32: 5, F32: 6, STRING: 8, ARRAY: 9 };
const EMBD = 64,
  LAYERS = 2,
  FF = 128,
  HEADS = 4,
  CONTEXT = 2048;

function vocabulary() {
  const tokens = ["<unk>", "<s>", "</s>", "<|im_start|>", "<|im_end|>"];
  const types = [2, 3, 3, 3, 3];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`);
    types.push(6);
  }
  for (const w of WORDS) {
    tokens.push(`▁${w}`);
    types.push(1);
  }
  for (const c of "abcdefghijklmnopqrstuvwxyz.,:;!?()") {
    tokens.push(c);
    types.push(1);
  }
  const scores = tokens.map((t, i) => (types[i] === 1 ? -i / 10 : 0));
  return { tokens, types, scores };
}

class Writer {
  parts = [];
  u32(v) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.parts.push(b);
  }
  i32(v) {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.parts.push(b);
  }
  u64(v) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.parts.push(b);
  }
  f32(v) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.parts.push(b);
  }
  str(s) {
    const b = Buffer.from(s, "utf8");
    this.u64(b.length);
    this.parts.push(b);
  }
  kv(key, type, value) {
    this.str(key);
    this.u32(type);
    if (type === T.U32) this.u32(value);
    else if (type === T.F32) this.f32(value);
    else if (type === T.STRING) this.str(value);
  }
  array(key, type, values) {
    this.str(key);
    this.u32(T.ARRAY);
    this.u32(type);
    this.u64(values.length);
    for (const v of values) {
      if (type === T.STRING) this.str(v);
      else if (type === T.F32) this.f32(v);
      else this.i32(v);
    }
  }
  get length() {
    return this.parts.reduce((n, b) => n + b.length, 0);
  }
}

/** A seeded generator, so the same file comes out every time. */
function random(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32 - 0.5) * 0.2;
}

export function makeGguf(path) {
  const { tokens, types, scores } = vocabulary();
  const vocab = tokens.length;
  const tensors = [
    ["token_embd.weight", [EMBD, vocab]],
    ["output_norm.weight", [EMBD]],
    ["output.weight", [EMBD, vocab]],
  ];
  for (let i = 0; i < LAYERS; i++) {
    tensors.push(
      [`blk.${i}.attn_norm.weight`, [EMBD]],
      [`blk.${i}.attn_q.weight`, [EMBD, EMBD]],
      [`blk.${i}.attn_k.weight`, [EMBD, EMBD]],
      [`blk.${i}.attn_v.weight`, [EMBD, EMBD]],
      [`blk.${i}.attn_output.weight`, [EMBD, EMBD]],
      [`blk.${i}.ffn_norm.weight`, [EMBD]],
      [`blk.${i}.ffn_gate.weight`, [EMBD, FF]],
      [`blk.${i}.ffn_up.weight`, [EMBD, FF]],
      [`blk.${i}.ffn_down.weight`, [FF, EMBD]],
    );
  }
  const template =
    "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}";
  const w = new Writer();
  const meta = [
    ["general.architecture", T.STRING, "llama"],
    ["general.name", T.STRING, "tandem-demo-random-weights"],
    ["general.file_type", T.U32, 0],
    ["llama.context_length", T.U32, CONTEXT],
    ["llama.embedding_length", T.U32, EMBD],
    ["llama.block_count", T.U32, LAYERS],
    ["llama.feed_forward_length", T.U32, FF],
    ["llama.attention.head_count", T.U32, HEADS],
    ["llama.attention.head_count_kv", T.U32, HEADS],
    ["llama.rope.dimension_count", T.U32, EMBD / HEADS],
    ["llama.attention.layer_norm_rms_epsilon", T.F32, 1e-5],
    ["llama.vocab_size", T.U32, vocab],
    ["tokenizer.ggml.model", T.STRING, "llama"],
    ["tokenizer.ggml.bos_token_id", T.U32, 1],
    ["tokenizer.ggml.eos_token_id", T.U32, 4],
    ["tokenizer.ggml.unknown_token_id", T.U32, 0],
    ["tokenizer.chat_template", T.STRING, template],
  ];
  w.parts.push(Buffer.from("GGUF"));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(meta.length + 3);
  for (const [k, t, v] of meta) w.kv(k, t, v);
  w.array("tokenizer.ggml.tokens", T.STRING, tokens);
  w.array("tokenizer.ggml.scores", T.F32, scores);
  w.array("tokenizer.ggml.token_type", T.I32, types);
  let offset = 0;
  const align = (n) => Math.ceil(n / 32) * 32;
  for (const [name, dims] of tensors) {
    w.str(name);
    w.u32(dims.length);
    for (const d of dims) w.u64(d);
    w.u32(0); // F32
    w.u64(offset);
    offset = align(offset + dims.reduce((a, b) => a * b, 1) * 4);
  }
  w.parts.push(Buffer.alloc(align(w.length) - w.length));
  const next = random(42);
  for (const [name, dims] of tensors) {
    const count = dims.reduce((a, b) => a * b, 1);
    const data = new Float32Array(count);
    // Norm weights are ones (as trained models start); the rest small random numbers.
    for (let i = 0; i < count; i++) data[i] = name.includes("norm") ? 1 : next();
    const bytes = Buffer.from(data.buffer);
    w.parts.push(bytes, Buffer.alloc(align(bytes.length) - bytes.length));
  }
  writeFileSync(path, Buffer.concat(w.parts));
  return path;
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(makeGguf(process.argv[2] ?? "tandem-demo.gguf"));
