// Simulator layer: a FoldRuntime driven with no Pi at all. An in-memory session of Pi-shaped entries
// (the runtime's `Host` over it), Pi's projection mirrored, a positional prefix-cache bill like the
// faux provider's, Pi's native compaction (its trigger, cut point and entry), the human's
// `/fold-context` commands, and a driver that replays a transcript turn by turn. The cost policy is
// tuned with it, the randomized session sweep runs on it, and `pi-fold replay` reads real sessions
// into it.

export { type DriveOptions, drive, type ReplayMessage, type SimRequest, type SimResult } from "./driver.ts";
export type { SimEntry } from "./entries.ts";
export { commandWords, type HumanCommand, type HumanLine, type HumanStep, typeCommand } from "./human-commands.ts";
export { MemoryStore } from "./memory-store.ts";
export type { NativeNote } from "./native-compaction.ts";
export {
	type CompactionPlan,
	type CompactionSettings,
	PI_COMPACTION_DEFAULTS,
	piEstimateTokens,
	prepareCompaction,
	projectedContextTokens,
	runEndTokens,
	shouldCompact,
} from "./pi-compaction.ts";
export {
	contextEntries,
	messageOf,
	type ProjectedEntry,
	projectedEntries,
	projectedMessages,
	toLlm,
} from "./pi-projection.ts";
export { CHARS_PER_TOKEN, commonPromptPrefix, messageText, PrefixCache, type SimUsage } from "./prefix-cache.ts";
export { type SimNames, SimSession, type SimSessionOptions } from "./sim-session.ts";
export { DEFAULT_SHAPE, random, type SessionShape, syntheticSession } from "./synthetic.ts";
