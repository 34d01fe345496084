// A verification worker that claims one task of the first batch it gets and dies without answering
// (tests/verify/pool.test.ts): the pool must run that task again on the calling thread.
import { parentPort } from "node:worker_threads";

parentPort.on("message", (m) => {
	const shared = new Int32Array(m.shared);
	const index = Atomics.add(shared, 0, 1);
	if (index < m.tasks.length) Atomics.store(shared, 1 + index, m.claimant);
	process.exit(3);
});
parentPort.postMessage({ ready: true });
