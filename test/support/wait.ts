/**
 * Waiting in specs: on a condition, never for a fixed time. A sleep long enough on a quiet
 * machine is too short on a loaded one (a flaky spec) and needlessly long everywhere else.
 */

/**
 * Polls `probe` until it returns true, or fails naming what it waited for. A probe that
 * throws counts as "not yet" (a server still starting, an `expect` not yet met); its last
 * error is part of the timeout message, so an `expect` inside the probe shows its diff.
 */
export async function waitFor(
  what: string,
  probe: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
  everyMs = 200,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = null;
  for (;;) {
    try {
      if (await probe()) return;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${String(lastError)})`);
    }
    await pause(everyMs);
  }
}

/**
 * A deliberate negative window: the time a spec gives something to happen that must NOT
 * happen, when no later observable event can stand in for it (see each caller's comment).
 * Not for waiting on something that should happen: use `waitFor`.
 */
export function negativeWindow(ms: number): Promise<void> {
  return pause(ms);
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
