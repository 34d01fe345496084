// Briefs layer: deterministic briefs, bounds and validation of agent-written briefs. Pure.
export { BRIEF_MAX_CHARS, boundBrief, deterministicBrief } from "./deterministic.ts";
export { BRIEF_MIN_CHARS, briefProblem } from "./validate.ts";
