// The common layer: tiny helpers every other layer may use (no imports of its own), and the registry
// of the memos a forecast keeps (memo-slots.ts). Pure.
export { errorMessage } from "./errors.ts";
export { keepingMemos, memoCount, registerMemo, undoWhenKept } from "./memo-slots.ts";
export {
	codePointLength,
	escapeUnsafe,
	findUnsafeCharacter,
	nounFor,
	plural,
	sliceCodePoints,
	unsafeTextProblem,
} from "./text.ts";
