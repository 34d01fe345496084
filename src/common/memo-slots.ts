// Memos kept across a forecast. The decision core keeps single-slot memos (the last input it was
// asked about and what it computed, so that the same branch with entries appended costs only what
// was appended), registered here, and one structure shared in place (a lattice's entry positions,
// src/lattice positions.ts, extended in place once per length). A forecast (a decision the host
// will not carry out: will the boundary about to come commit?) reads the branch with a message the
// host has not appended yet; `keepingMemos` puts every slot back as it was afterwards and undoes what
// was extended in place, so the next real boundary still extends the real branch instead of
// rebuilding it. What a forecast builds is not used after it. Pure in-memory.

interface Slot {
	get(): unknown;
	set(value: unknown): void;
}

const slots: Slot[] = [];
/** Undo actions recorded inside the running `keepingMemos` (newest last), or null outside one. */
let undo: (() => void)[] | null = null;

/** Registers one memo's slot (its module's `let` variable, read and written through closures). */
export function registerMemo(get: () => unknown, set: (value: unknown) => void): void {
	slots.push({ get, set });
}

/** Inside `keepingMemos`, `action` runs when it ends (undoing an extension in place); outside, nothing. */
export function undoWhenKept(action: () => void): void {
	undo?.push(action);
}

/** Runs `fn`, then restores every registered memo and undoes every extension in place it made. */
export function keepingMemos<R>(fn: () => R): R {
	if (undo) return fn();
	const saved = slots.map((slot) => slot.get());
	const actions: (() => void)[] = [];
	undo = actions;
	try {
		return fn();
	} finally {
		undo = null;
		for (const action of actions.reverse()) action();
		for (const [i, slot] of slots.entries()) slot.set(saved[i]);
	}
}

/** How many memos are registered (a test checks each module registered its own). */
export function memoCount(): number {
	return slots.length;
}
