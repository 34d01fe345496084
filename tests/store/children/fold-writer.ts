// Child process: one writer of a live session. Writes folds into the store at argv[2] (each over a
// window of the shared entries argv[4] seeds, which are already stored and old, plus a few of its
// own), appending each fold's root digest to the session file argv[3] after its blobs, as pi-fold
// does (blobs first, then the record). argv[5] names the writer; prints "done" at the end
// (tests/store/gc-race.test.ts).

import { appendFileSync } from "node:fs";
import { foldId } from "../../../src/lattice/index.ts";
import { leafBlobs } from "../../../src/runtime/index.ts";
import { FoldStore } from "../../../src/store/index.ts";
import { sharedEntries } from "./shared-entries.ts";

const [storeDir, sessionFile, count, name] = process.argv.slice(2) as [string, string, string, string];
const shared = sharedEntries(Number(count));
const store = new FoldStore(storeDir, { durable: false });
for (let k = 0; k < 150; k++) {
	const from = (k * 797 + (name === "w1" ? 0 : 331)) % (shared.length - 40);
	const own = [{ id: `${name}-${k}`, message: { role: "user", content: `${name} ${k}` } as never }];
	const leaves = [...shared.slice(from, from + 40), ...own];
	const { sha256 } = await store.putFold(foldId(leaves), leafBlobs(leaves));
	appendFileSync(sessionFile, `${JSON.stringify({ type: "custom", data: { sourceSha256: sha256 } })}\n`);
}
process.stdout.write("done\n");
