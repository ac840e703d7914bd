import assert from "node:assert/strict";
import { takesImages } from "../../../src/agent/vision";

describe("agent: which models take images", () => {
  it("knows the families that read images by their names, provider prefixes and tags included", () => {
    const reading = [
      "gpt-4o-mini",
      "openai/gpt-4.1",
      "gpt-5",
      "o4-mini",
      "anthropic/claude-sonnet-4",
      "claude-3-5-haiku",
      "gemini-2.5-flash",
      "gemma3:12b",
      "llava:7b",
      "qwen2.5vl:7b",
      "Qwen/Qwen2.5-VL-7B-Instruct",
      "llama3.2-vision:11b",
      "meta-llama/llama-4-scout",
      "mistral-small-3.1-24b",
      "pixtral-12b",
      "minicpm-v",
      "glm-4v-9b",
    ];
    assert.deepEqual(
      reading.filter((m) => !takesImages(m)),
      [],
    );
  });

  it("says no for text-only models, audio and embeddings", () => {
    const textOnly = [
      "qwen3:8b",
      "llama3.2:3b",
      "deepseek-r1",
      "deepseek-v3",
      "o3-mini",
      "gpt-3.5-turbo",
      "claude-2.1",
      "gpt-4o-audio-preview",
      "text-embedding-3-small",
      "tandem-demo-random-weights",
    ];
    assert.deepEqual(
      textOnly.filter((m) => takesImages(m)),
      [],
    );
  });

  it("takes what Check Endpoint learned over the name", () => {
    assert.equal(takesImages("my-finetune", true), true);
    assert.equal(takesImages("gpt-4o", false), false);
  });
});
