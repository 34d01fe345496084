// Simulator layer: a FoldRuntime driven with no Pi at all. An in-memory session of Pi-shaped entries
// (the runtime's `Host` over it), Pi's projection mirrored, a positional prefix-cache bill like the
// faux provider's, Pi's native compaction (its trigger, cut point and entry), the human's
// `/fold-context` commands, and a driver that replays a transcript turn by turn. The cost policy is
// tuned with it, the randomized session sweep runs on it, and `pi-fold replay` reads real sessions
// into it.

export { type DriveOptions, drive, type ReplayMessage, type SimRequest, type SimResult } from "./driver.ts";
export type { SimEntry } from "./entries.ts";
export { commandWords, type HumanStep } from "./human-commands.ts";
export { MemoryStore } from "./memory-store.ts";
export { type CompactionSettings, prepareCompaction, projectedContextTokens } from "./pi-compaction.ts";
export { contextEntries, messageOf, projectedMessages, toLlm } from "./pi-projection.ts";
export { PrefixCache, type SimUsage } from "./prefix-cache.ts";
export { SimSession } from "./sim-session.ts";
export { syntheticSession } from "./synthetic.ts";
