/**
 * The shapes of the values docket passes around as text, in one place for config, payments,
 * prompts and operations alike.
 */

/** An account or contract address: 0x and 40 hex digits (EIP-55 mixed case is checked elsewhere). */
export const ADDRESS_PATTERN = "^0x[0-9a-fA-F]{40}$";
/** A keyset cursor of the index's lists: the last row's key, whole numbers joined by dots (a page's `nextCursor`). */
export const CURSOR_PATTERN = "^[0-9]{1,15}(\\.[0-9]{1,15}){0,3}$";
/** A wei amount: a decimal integer string (JSON numbers cannot hold uint256). */
export const AMOUNT_PATTERN = "^[0-9]{1,78}$";
/** A transaction hash, or any 32-byte value (a vote's salt, a payment reference): 0x and 64 hex digits. */
export const TX_HASH_PATTERN = "^0x[0-9a-fA-F]{64}$";

/**
 * An evidence reference's shape: a CID, `ipfs://<cid>` or `/ipfs/<cid>` (whether the CID decodes is
 * checked apart: src/evidence/cid.ts). Slashes in classes: a RegExp's source escapes a bare one,
 * and validation errors find their code by the source.
 */
export const EVIDENCE_REF_PATTERN = "^(ipfs:[/][/]|[/]ipfs[/])?[A-Za-z0-9]{8,120}$";

export const ADDRESS_RE = new RegExp(ADDRESS_PATTERN);
export const AMOUNT_RE = new RegExp(AMOUNT_PATTERN);
export const TX_HASH_RE = new RegExp(TX_HASH_PATTERN);
