// The automatic ladder's and the epoch scheduler's thresholds: explicit constants, not knobs (the
// spec: "The ladder's thresholds are explicit constants rather than knobs"). Each is named for what
// it is, documented, and tested. Pure.

/** Below this share of the serving budget nothing rewrites automatically, in either mode. */
export const QUIET_OCCUPANCY = 0.8;

/** At or above this occupancy the consolidation rung squeezes existing folds to reclaim room. */
export const CONSOLIDATE_OCCUPANCY = 0.85;

/** More visible collapsed folds than this triggers consolidation (keeps the brief index tidy). */
export const MAX_VISIBLE_FOLDS = 10;

/**
 * A consolidation takes this many adjacent folds. Not read by the code: the rung merges pairs by
 * construction (`mergePairs` in ladder.ts, a binary counter); this names the number.
 */
export const CONSOLIDATE_MIN_FOLDS = 2;

/** An automatic commit aims to free at least this share of the serving budget ("a fifth"). */
export const COMMIT_TARGET_SHARE = 0.2;

/**
 * "Enough stale tool mass outside the fresh tail for a commit to have something to work with":
 * completed tool batches outside the tail worth at least this share of the serving budget.
 */
export const MIN_STALE_TOOL_SHARE = 0.05;

/** At or above this occupancy the pressure backstop commits whatever the stale-mass signal says. */
export const PRESSURE_BACKSTOP_OCCUPANCY = 0.92;

/** A fold whose span ends within this many messages of the window's end applies at once in epoch mode. */
export const TAIL_IMMEDIATE_MESSAGES = 4;

/**
 * A commit forced at the backstop that would leave the window above this share of the budget calls
 * the rescue (src/runtime gates.ts): at that fill one more turn of growth forces the next rewrite.
 */
export const RESCUE_TRIGGER_SHARE = 0.6;

/** The rescue folds stale units, oldest first, until the window is down to this share of the budget. */
export const RESCUE_TARGET_SHARE = 0.45;

/**
 * Cost scheduling's span rung proposes only at or above this occupancy of the serving budget: the
 * conversation itself (asks, decisions, short results) folds only when the window is this full;
 * below it, what the span rung would save does not pay for the detail its brief leaves out.
 */
export const SPAN_MIN_OCCUPANCY = 0.5;

/**
 * The span rung proposes from this lower occupancy when no other rung has anything to fold at the
 * boundary (no completed read-only tool batch, no closed chapter outside the keep-raw floor): a
 * session whose agent works through tools that are not read-only (a shell-only agent reads files
 * with `sed` and `rg` through `bash`) leaves the tool rung nothing, and its window would otherwise
 * grow raw to half the budget before anything folds. The cost gate still decides whether the span
 * pays. Only in a session whose tool rung never folded a batch: where reads are read-only (the
 * benchmark's agent), opening spans early cost more (the ladder at 272k 0.66x native instead of 0.61x).
 */
export const SPAN_ALONE_MIN_OCCUPANCY = 0.2;

/**
 * A result of the context tool's reads (peek, search) stays raw for this many of the agent's turns
 * after it landed: no automatic rung folds it before then (only the budget backstop's rescue may).
 * What the agent just looked at is what it is about to use; folding it at the next commit would make
 * it read it again. An expanded fold stays raw until the agent refolds it, whatever the count.
 */
export const SHOWN_READ_TURNS = 4;
