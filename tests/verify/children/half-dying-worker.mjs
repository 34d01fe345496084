// A worker for tests/verify/pool.test.ts's generic pool: on an odd thread id it claims one task of the
// first batch it gets and dies without answering; on an even one it serves (a task n answers 2n,
// after a few ms, so the dying worker gets to claim one).
import { parentPort, threadId } from "node:worker_threads";
import { serveTasks } from "../../../src/verify/pool-worker.ts";

if (threadId % 2 === 1) {
	parentPort.on("message", (m) => {
		const shared = new Int32Array(m.shared);
		const index = Atomics.add(shared, 0, 1);
		if (index < m.tasks.length) Atomics.store(shared, 1 + index, m.claimant);
		process.exit(3);
	});
	parentPort.postMessage({ ready: true });
} else {
	const until = (ms) => {
		const end = Date.now() + ms;
		while (Date.now() < end);
	};
	serveTasks(
		"piFoldTestWorker",
		(n) => {
			until(3);
			return 2 * n;
		},
		() => -1,
	);
}
