// How pi-fold's limit was derived, in plain words for `/context details`, the status tool and the
// notices that name the limit: the total window (the model's, or providerTotalWindow), what is kept
// for the reply and why (the room Pi keeps, because pi-ai sizes each reply to the room the prompt
// leaves; or the model's whole output cap when that is smaller), and where Pi compacts on its own.
// Pure over a ServingBudget.

import type { ServingBudget } from "../../policy/index.ts";

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

/** What is kept for the reply, and why: "16,384 kept for the reply (...)". */
export function reservationWords(b: ServingBudget): string {
	const kept = `${fmt(b.outputReservation)} kept for the reply`;
	if (b.reservationFrom === "output-cap")
		return `${kept} (the model's whole output cap${b.hostReserve !== null ? `, under Pi's ${fmt(b.hostReserve)}-token reserve` : ""})`;
	if (b.reservationFrom === "reply-room") {
		const cap =
			b.outputCap !== null && b.outputCap > b.outputReservation
				? `, so the model's ${fmt(b.outputCap)}-token output cap is not held back`
				: "";
		return `${kept} (the room Pi keeps for a reply; pi-ai sizes each reply to the room the prompt leaves${cap})`;
	}
	return `${fmt(b.outputReservation)} reserved for output`;
}

/** Where Pi compacts on its own, beside the limit, or null when Pi's reserve is not known. */
export function hostThresholdWords(b: ServingBudget): string | null {
	if (b.hostThreshold === null) return null;
	if (b.hostThreshold <= 0)
		return `Pi's reserve of ${fmt(b.hostReserve ?? 0)} tokens is larger than this window: Pi compacts after every turn when its compaction is on`;
	return `Pi compacts on its own above ${fmt(b.hostThreshold)} tokens`;
}

/** The derivation as short lines for an 80-column view (`/context details`). */
export function derivationLines(b: ServingBudget): string[] {
	const total = b.totalWindowSource === "descriptor" ? "the model's window" : "providerTotalWindow";
	const head = `= ${total} ${fmt(b.totalWindow)} less ${fmt(b.outputReservation)} kept for the reply`;
	const why: string[] =
		b.reservationFrom === "output-cap"
			? [
					`  (the model's whole output cap${b.hostReserve !== null ? `, under Pi's ${fmt(b.hostReserve)}-token reserve` : ""})`,
				]
			: b.reservationFrom === "reply-room"
				? [
						"  (the room Pi keeps for a reply: pi-ai sizes each reply to the room",
						`  the prompt leaves${b.outputCap !== null && b.outputCap > b.outputReservation ? `, not to the model's ${fmt(b.outputCap)}-token output cap` : ""})`,
					]
				: [];
	const threshold = hostThresholdWords(b);
	return [head, ...why, ...(threshold === null ? [] : [threshold])];
}
