// The common layer: tiny helpers every other layer may use (no imports of its own). Pure.
export { errorMessage } from "./errors.ts";
export {
	codePointLength,
	escapeUnsafe,
	findUnsafeCharacter,
	nounFor,
	plural,
	sliceCodePoints,
	unsafeTextProblem,
} from "./text.ts";
