/**
 * The Markdown items the panel is streaming: each item's keyed renderer and the sender that merges
 * its patches to at most one per animation frame.
 */
import { MarkdownStream, coalesce, type Coalescer } from "../../markdown";
import type { Patch } from "../../protocol/blocks";
import type { Item } from "../row-schemas";
import type { Change } from "../store";

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

  /**
   * Renders the text of CHANGE, a change of a Markdown item (ROW, as it is now), and sends its
   * patch: a delta (`appended`) is appended to the item's stream, which reads nothing of the text
   * before it; a text replaced otherwise (taken back, or seen for the first time) is read whole. A
   * finished item's last patch goes out at once.
   */
  changed(row: Item, change: Change<"items">): void {
    const known = this.streams.has(row.id);
    const stream = this.stream(row.id);
    const sender = this.sender(row.id);
    const before = change.before;
    if (known && change.appended !== undefined && before && !before.done)
      sender.push(stream.append(change.appended));
    else if (!known || !before || before.text !== row.text) sender.push(stream.update(row.text));
    if (row.done) {
      sender.push(stream.end());
      sender.flush();
    }
  }

  /** Whether item `id` has been rendered for the panel (its blocks were sent). */
  has(id: string): boolean {
    return this.streams.has(id);
  }

  /** Renders the Markdown item `row` whole and sends its blocks at once (the panel asked for them). */
  whole(row: Item): void {
    const stream = this.stream(row.id);
    const sender = this.sender(row.id);
    sender.push(stream.update(row.text));
    if (row.done) sender.push(stream.end());
    sender.flush();
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
