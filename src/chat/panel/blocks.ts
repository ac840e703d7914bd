/**
 * The Markdown items the panel is streaming: each item's keyed renderer and the sender that merges
 * its patches to at most one per animation frame.
 */
import { MarkdownStream, coalesce, type Coalescer } from "../../markdown";
import type { Patch } from "../../protocol/blocks";

/** The streams of the items shown, by item id. */
export class ItemStreams {
  private readonly streams = new Map<string, MarkdownStream>();
  private readonly senders = new Map<string, Coalescer>();

  constructor(private readonly send: (patch: Patch) => void) {}

  /** The renderer of item `id`, made on first use. */
  stream(id: string): MarkdownStream {
    let stream = this.streams.get(id);
    if (!stream) {
      stream = new MarkdownStream(id);
      this.streams.set(id, stream);
    }
    return stream;
  }

  /** Patches of one item go out at most once per animation frame, merged. */
  sender(id: string): Coalescer {
    let sender = this.senders.get(id);
    if (!sender) {
      sender = coalesce(this.send);
      this.senders.set(id, sender);
    }
    return sender;
  }

  /** Sends what item `id` still holds and forgets it. */
  drop(id: string): void {
    this.senders.get(id)?.flush();
    this.senders.get(id)?.dispose();
    this.senders.delete(id);
    this.streams.delete(id);
  }

  /** Drops every item's stream (another conversation is shown, or the view goes). */
  dropAll(): void {
    for (const id of [...this.streams.keys()]) this.drop(id);
  }
}
