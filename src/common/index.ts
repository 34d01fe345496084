// The common layer: tiny helpers every other layer may use (no imports of its own). Pure.
export { errorMessage } from "./errors.ts";
export {
	codePointLength,
	describeCharacter,
	escapeUnsafe,
	findUnsafeCharacter,
	nounFor,
	plural,
	sliceCodePoints,
	type UnsafeCharacter,
	unsafeTextProblem,
} from "./text.ts";
