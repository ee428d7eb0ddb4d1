/**
 * A process of its own for test/store/store.test.ts: opens the store the environment names,
 * migrates, writes a block, closes, and says so. Nothing else ends it: if the store left a
 * handle open (a pool, a timer, the embedded database), the process would not exit by itself.
 * With HOLD=1 it says `holding` after the write and waits, store open, to be killed.
 */
import { loadConfig } from "../../src/config.js";
import { makeLogger } from "../../src/log.js";
import { openStore } from "../../src/store/store.js";

const store = await openStore(loadConfig(), makeLogger("silent"));
const applied = await store.migrate();
await store.db
  .insertInto("chain_blocks")
  .values({ number: 1, hash: `0x${"ab".repeat(32)}`, parent_hash: `0x${"00".repeat(32)}`, timestamp: 1 })
  .onConflict((oc) => oc.doNothing())
  .execute();
if (process.env.HOLD === "1") {
  process.stdout.write("holding\n");
  setInterval(() => {}, 60_000);
} else {
  await store.close();
  process.stdout.write(`closed after ${applied.length} migrations\n`);
}
