// The recalls a replay estimates (src/replay/replay-recalls.ts): a reply that needs a file whose read
// the request under pi-fold no longer shows costs a search and a peek, one request fewer when the
// reply reads the file again; a reply quoting a token the request lacks costs a recall too; what the
// request still shows costs nothing. Driven message by message, as the replay's driver calls it.

import { describe, expect, it } from "vitest";
import { distinctiveTokens, RECALL_REQUESTS, RecallMeter, type RequestPrice } from "../../src/replay/replay-recalls.ts";
import type { TranscriptMessage } from "../../src/transcript/index.ts";
import { readBatch, reply, toolUse, user } from "../helpers/entries.ts";

const BODY = `export const answer = 42;\n${"// a line of the file\n".repeat(20)}`;
const brief: TranscriptMessage = { role: "assistant", content: [{ type: "text", text: "[fold f1: read src/a.ts]" }] };

/** The session: a read of src/a.ts, a receipt, then (at index 4) a reply to a question about src/a.ts. */
function session(last: TranscriptMessage) {
	const entries = [
		...readBatch("b1", ["src/a.ts"], () => BODY),
		user("u1", "Receipt for stage 1: R1-AB12CD34. How many lines does src/a.ts have?"),
		{ id: "r", message: last },
	];
	return entries.map((e) => ({ message: e.message as TranscriptMessage }));
}

const at = 3;
const flat: RequestPrice = (fresh, cacheRead, output) => fresh + cacheRead + output;

describe("the recalls a replay estimates", () => {
	it("counts a search and a peek for a file whose read the request no longer shows", () => {
		const messages = session(reply("a", "It has 21 lines.").message as TranscriptMessage);
		const meter = new RecallMeter(messages);
		meter.observe(at, [brief, messages[2]?.message as TranscriptMessage], 10_000);
		const bill = meter.bill(flat);
		expect(bill.recalls).toBe(1);
		expect(bill.requests).toBe(RECALL_REQUESTS);
		expect(bill.cacheRead).toBe(2 * 10_000);
	});

	it("counts nothing while the request still shows the read", () => {
		const messages = session(reply("a", "It has 21 lines.").message as TranscriptMessage);
		const meter = new RecallMeter(messages);
		meter.observe(
			at,
			messages.slice(0, at).map((m) => m.message),
			10_000,
		);
		expect(meter.bill(flat).recalls).toBe(0);
	});

	it("counts one request fewer when the reply reads the folded file again", () => {
		const again = toolUse("b2", [{ id: "c2", name: "read", args: { path: "src/a.ts" } }]).message;
		const messages = session(again as TranscriptMessage);
		const meter = new RecallMeter(messages);
		meter.observe(at, [brief], 10_000);
		expect(meter.bill(flat).requests).toBe(RECALL_REQUESTS - 1);
	});

	it("counts a recall for a quoted receipt the request no longer shows", () => {
		const quote = reply("a", "Receipt: R1-AB12CD34").message as TranscriptMessage;
		const messages = session(quote);
		const meter = new RecallMeter(messages);
		// The read is shown, the receipt's message is not.
		meter.observe(at, [messages[0]?.message as TranscriptMessage, messages[1]?.message as TranscriptMessage], 5_000);
		expect(meter.bill(flat).recalls).toBe(1);
	});

	it("takes as distinctive only tokens that mix letters and digits or are long numbers", () => {
		expect(distinctiveTokens("R13-R49RVYJS K4-CLRAMH line 266 of 1234567 and plain-words here")).toEqual([
			"R13-R49RVYJS",
			"K4-CLRAMH",
			"1234567",
		]);
	});
});
