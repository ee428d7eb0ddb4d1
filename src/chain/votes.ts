import { type Address, encodeAbiParameters, type Hex, keccak256 } from "viem";

/**
 * The commitment a judge sends with `commitVote` when a court hides votes: exactly what
 * `DisputeCase.revealVote` recomputes, keccak256(abi.encode(case, judge, round, plaintiffWins, salt)).
 * The case and judge in it make a commitment useless on any other case or for any other judge.
 */
export function voteCommitment(c: {
  caseAddress: Address;
  judge: Address;
  round: number;
  plaintiffWins: boolean;
  salt: Hex;
}): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: "address" }, { type: "address" }, { type: "uint8" }, { type: "bool" }, { type: "bytes32" }],
      [c.caseAddress, c.judge, c.round, c.plaintiffWins, c.salt],
    ),
  );
}

/** Fresh 32 random bytes: a vote salt nobody can guess (so a commitment hides its vote), a payment reference. */
export function randomBytes32(): Hex {
  const b = crypto.getRandomValues(new Uint8Array(32));
  return `0x${Buffer.from(b).toString("hex")}`;
}
