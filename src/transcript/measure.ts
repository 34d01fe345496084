// Sizes of messages, memoized by the message object: a host keeps every stored message as one
// object for the whole session (Pi's session manager does, and so does the simulator), so each is
// measured once, not at every boundary. A message is never mutated once stored. Pure.

import type { TranscriptMessage } from "./transcript-types.ts";

const charsOf = new WeakMap<object, number>();

/** Characters of `message` as JSON: the size measure the pure layers use (units, fresh tail). */
export function messageChars(message: TranscriptMessage): number {
	let chars = charsOf.get(message);
	if (chars === undefined) {
		chars = JSON.stringify(message).length;
		charsOf.set(message, chars);
	}
	return chars;
}

/**
 * A per-object memo for any measure of a message (token estimates in src/policy), keyed by the
 * message object like `messageChars`.
 */
export function memoByMessage<T>(measure: (message: object) => T): (message: object) => T {
	const memo = new WeakMap<object, T>();
	return (message) => {
		let value = memo.get(message);
		if (value === undefined) {
			value = measure(message);
			memo.set(message, value);
		}
		return value;
	};
}
