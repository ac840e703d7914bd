/**
 * Whether a model reads images, for what Tandem tells VS Code about its models: what Check Endpoint
 * learned when it asked, else the model's name, matched against the families known to read images.
 */

/** Families that read images: names, or the vision markers model ids carry (`-vl`, `vision`, `4v`…). */
const READS_IMAGES = new RegExp(
  [
    /gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-4-vision|gpt-4\.5|gpt-5|chatgpt-4o|\bo[134](?:-pro)?\b|o4-mini/.source,
    /claude-(?:3|[4-9]|sonnet|opus|haiku)/.source,
    /gemini|gemma-?3|gemma-?[4-9]|llava|bakllava|moondream|minicpm-?v|pixtral|mistral-(?:small|medium)-?3/
      .source,
    /llama-?3\.2.*vision|llama-?4|grok-.*vision|grok-[4-9]|internvl|qvq|glm-?4(?:\.\d)?v|kimi-vl/.source,
    /vision|multimodal|\dvl\b|[-_.]vl\b|[-_.]vl[-_.:]|\bvl-|\d+v\b|omni/.source,
  ].join("|"),
  "i",
);

/** Names that contain a vision family's but read no images (audio, embeddings, the small reasoning models). */
const TEXT_ONLY = /embed|whisper|tts|transcribe|audio|realtime|o1-mini|o3-mini|moderation/i;

/**
 * True when MODEL (an id or name, provider prefix allowed: `openai/gpt-4o`) reads images: LEARNED when
 * Check Endpoint found out, else by its name.
 */
export function takesImages(model: string, learned?: boolean): boolean {
  if (learned !== undefined) return learned;
  return READS_IMAGES.test(model) && !TEXT_ONLY.test(model);
}
