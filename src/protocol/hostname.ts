/** A web address's host, read one way by the host side (approval) and the panel (remote images). */

/** The host name of an http(s) address, lower case; undefined for anything else. */
export function hostOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return /^https?:$/.test(parsed.protocol) && parsed.hostname ? parsed.hostname.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}
