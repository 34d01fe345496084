// The decision core's single-slot memos, registered in one place. Each memo keeps the last input it
// was asked about and what it computed, so that the next input, the same branch with entries
// appended, costs only what was appended. A forecast (a decision the host will not carry out: will
// the boundary about to come commit?) reads the branch with a message the host has not appended yet;
// `keepingMemos` puts every slot back as it was afterwards, so the next real boundary still extends
// the real branch instead of rebuilding it. Pure in-memory.

interface Slot {
	get(): unknown;
	set(value: unknown): void;
}

const slots: Slot[] = [];

/** Registers one memo's slot (its module's `let` variable, read and written through closures). */
export function registerMemo(get: () => unknown, set: (value: unknown) => void): void {
	slots.push({ get, set });
}

/** Runs `fn` and then restores every registered memo to what it held before, whatever `fn` did. */
export function keepingMemos<R>(fn: () => R): R {
	const saved = slots.map((slot) => slot.get());
	try {
		return fn();
	} finally {
		for (const [i, slot] of slots.entries()) slot.set(saved[i]);
	}
}

/** How many memos are registered (a test checks each module registered its own). */
export function memoCount(): number {
	return slots.length;
}
