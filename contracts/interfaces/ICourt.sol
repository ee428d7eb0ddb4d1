// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice Shared types and the narrow interfaces the court contracts use to talk to each other.
enum CaseState {
    Filed,
    Summoned,
    Active,
    Deliberating,
    Resolved,
    Dismissed,
    Defaulted,
    Appealed
}

enum Outcome {
    None,
    PlaintiffWon,
    DefendantWon,
    Dismissed
}

/// @dev How a judge's part in a round ended, as recorded in the registry.
enum JudgeResult {
    Majority,
    Minority,
    NoShow,
    Unscored
}

/// @dev Terms copied into each case when it is filed, so later parameter changes never alter it.
struct CaseTerms {
    uint64 responseWindow;
    uint64 deliberationPeriod;
    uint64 appealWindow;
    uint16 courtFeeBps;
    uint16 judgeRewardBps;
    uint256 minPartyStake;
    uint256 appealBond;
    /// @dev Hidden votes: judges commit a hash first and reveal it after the commit phase.
    bool hiddenVotes;
    uint64 commitPeriod;
    uint64 revealPeriod;
    /// @dev Judges drawn for the first round, and for the appeal (odd, appeal at least the first).
    uint16 panelSize;
    uint16 appealPanelSize;
}

/// @dev What the owner sets for a court: the terms its cases copy at filing, the minimum stake a
/// judge places in it, and the panel size from which an appeal is drawn from the parent court.
struct CourtConfig {
    uint256 minJudgeStake;
    /// @dev An appeal whose panel has at least this many judges is heard by the parent court's
    /// pool (0: never; the General court has no parent and never jumps).
    uint16 jumpPanelSize;
    CaseTerms terms;
}

/// @dev One court as the views return it.
struct CourtView {
    uint96 id;
    /// @dev 0 for the General court (the root).
    uint96 parent;
    uint8 depth;
    string name;
    /// @dev The court's policy document: a CID (CIDv1, base32) of the rules its judges apply.
    string policy;
    CourtConfig config;
    uint96[] children;
    /// @dev Judges with a stake counted here now (staked in this court or one below it).
    uint256 judgeCount;
    /// @dev The court's draw pool now: every counted stake in it and the courts below it.
    uint256 totalStake;
}

/// @dev One revealed (or, with public votes, cast) vote and the judge's reasons.
struct VoteView {
    address judge;
    /// @dev 0 none, 1 for the plaintiff, 2 for the defendant, 3 committed and not revealed yet.
    uint8 vote;
    string justification;
}

/// @dev Everything a gateway needs about one case, read in one call.
struct CaseView {
    address addr;
    CaseState state;
    address plaintiff;
    address defendant;
    string claimDescription;
    uint256 plaintiffStake;
    uint256 defendantStake;
    string evidenceIpfsHash;
    address[] judges;
    uint256 votesForPlaintiff;
    uint256 votesForDefendant;
    uint64 filedAt;
    uint64 resolvedAt;
    Outcome outcome;
    string verdictReason;
    bool appealWindowOpen;
    bool appealUsed;
    uint64 responseDeadline;
    uint64 deliberationDeadline;
    uint64 appealDeadline;
    uint8 round;
    bool settled;
    address appellant;
    uint256 appealBond;
    uint256 evidenceCount;
    uint64 chainTime;
    bool hiddenVotes;
    uint256 votesCommitted;
    uint64 commitDeadline;
    uint64 revealDeadline;
    /// @dev Where the pending draw stands: the entropy ticket and the block the pool is read at.
    uint256 drawTicket;
    uint64 drawPoolBlock;
    VoteView[] votes;
    /// @dev The court the case was filed in, and the court whose pool hears its appeal.
    uint96 courtId;
    uint96 appealCourtId;
}

/// @dev A lighter view for lists of open cases: no free text.
struct CaseSummary {
    address addr;
    CaseState state;
    address plaintiff;
    address defendant;
    address[] judges;
    uint256 votesForPlaintiff;
    uint256 votesForDefendant;
    uint64 filedAt;
    uint64 responseDeadline;
    uint64 deliberationDeadline;
    uint8 round;
    uint96 courtId;
}

/// @dev What deciding who may act on a case now needs (inbox, keeper view): no free text.
struct CaseStatus {
    address addr;
    CaseState state;
    address plaintiff;
    address defendant;
    uint8 round;
    bool hiddenVotes;
    bool settled;
    bool appealUsed;
    /// @dev The party that may appeal (the round-1 loser) while the case is Resolved in round 1 and unsettled; zero otherwise.
    address mayAppeal;
    uint64 responseDeadline;
    uint64 deliberationDeadline;
    uint64 commitDeadline;
    uint64 revealDeadline;
    uint64 appealDeadline;
    uint64 drawPoolBlock;
    /// @dev While the case awaits a panel (Active in round 1, Appealed in round 2): the armed draw's
    /// IDrawEntropy.Status (0 pending, 1 ready, 2 expired); 255 when no draw is awaited.
    uint8 drawStatus;
    uint256 votesCommitted;
    uint256 evidenceCount;
    /// @dev The current round's panel and each judge's vote code (0 none, 1 plaintiff, 2 defendant, 3 committed).
    address[] judges;
    uint8[] votes;
    /// @dev The court whose pool seats the current round (the appeal court in round 2).
    uint96 courtId;
}

/// @dev A dispute the arbitrator files through the factory (CaseFactory.fileDispute): the court, the
/// first round's panel size, the parties (who stake nothing), the claim and evidence, and the
/// arbitrable and dispute id the ruling goes back to.
struct DisputeFiling {
    uint96 courtId;
    uint16 panelSize;
    address plaintiff;
    address defendant;
    string claimDescription;
    string evidenceIpfsHash;
    address arbitrable;
    uint256 disputeId;
}

/// @notice What a case and the factory call on the court registry (CourtRegistry).
interface ICourtRegistry {
    /// @notice Whether `judge` can be drawn in `courtId` now.
    /// @param judge The judge.
    /// @param courtId The court.
    /// @return True when a stake of its in that court or one below it reaches its court's minimum.
    function isEligibleJudgeIn(address judge, uint96 courtId) external view returns (bool);
    /// @notice Draws `size` distinct judges from `courtId`'s pool, stake-weighted as of the end of
    /// block `atBlock`, never one of `excluded`.
    /// @param courtId The court whose pool is drawn from.
    /// @param seed The draw's randomness.
    /// @param atBlock The block whose end state of the pool is read.
    /// @param size How many judges.
    /// @param excluded Who may not be drawn.
    /// @return The judges, in draw order.
    function drawPanel(uint96 courtId, bytes32 seed, uint64 atBlock, uint256 size, address[] calldata excluded)
        external
        view
        returns (address[] memory);
    /// @notice A case armed a draw on `courtId`'s pool as of this block; only a case.
    /// @param courtId The court whose pool the draw reads.
    function drawArmed(uint96 courtId) external;
    /// @notice The case's armed draw no longer waits (it seated a panel, or the case ended); only a case.
    function drawSettled() external;
    /// @notice A case seated `judge`; only a case.
    /// @param judge The judge.
    function judgeAssigned(address judge) external;
    /// @notice A judge voted (or revealed) on a case; only a case.
    /// @param judge The judge.
    function judgeVoted(address judge) external;
    /// @notice Ends a judge's service on a case and scores it; only a case.
    /// @param judge The judge.
    /// @param result How its vote compared with the final outcome.
    function judgeReleased(address judge, JudgeResult result) external;
    /// @notice Receives a case's court fee: `each` to every listed judge, the rest to the treasury; only a case.
    /// @param judges The judges who voted for the final outcome.
    /// @param each What each of them gets.
    function creditRewards(address[] calldata judges, uint256 each) external payable;
    /// @notice A case ended with a verdict or a default: the parties' records; only a case.
    /// @param winner The party that won.
    /// @param loser The party that lost.
    /// @param noShow Whether the loser never answered (a default).
    function recordParties(address winner, address loser, bool noShow) external;
    /// @notice A case was dismissed with no verdict; only a case.
    /// @param plaintiff The plaintiff.
    /// @param defendant The defendant.
    function recordDismissal(address plaintiff, address defendant) external;
    /// @notice Marks a new case, which may then touch judge stakes and records; only the factory.
    /// @param caseAddr The case.
    function registerCase(address caseAddr) external;
}

/// @notice What a case calls on its factory (CaseFactory).
interface ICaseFactory {
    /// @notice The calling case moved from state `from` to `to`; only a case of this factory.
    /// @param from The state it left.
    /// @param to The state it is in now.
    function onCaseChanged(CaseState from, CaseState to) external;
}

/// @notice Where a draw's randomness comes from. `arm` is called when a case becomes ready for a
/// draw; the value must not be knowable by anyone (callers, parties, judges) at that moment.
/// BlockhashEntropy (the default) uses the hash of the arming block; a VRF adapter requests a
/// random word in `arm` and reports it `Ready` once the coordinator has fulfilled the request.
interface IDrawEntropy {
    enum Status {
        Pending,
        Ready,
        Expired
    }

    /// @notice Requests the randomness for a draw armed now.
    /// @return ticket What identifies this request to `entropyOf`.
    function arm() external returns (uint256 ticket);

    /// @notice Where a request stands, and its value once there is one.
    /// @param ticket What `arm` returned.
    /// @return value The random value once `Ready`; zero otherwise.
    /// @return status Pending (not yet knowable), Ready, or Expired (never will be: arm again).
    function entropyOf(uint256 ticket) external view returns (bytes32 value, Status status);
}

/// @notice A filing-fee token as the factory uses it: any EIP-3009 token (USDC's FiatToken surface),
/// plus the ERC-20 calls to check what arrived and forward it.
interface IFeeToken {
    /// @notice EIP-3009: moves `value` from `from` to `to` on `from`'s signed authorization; anyone may submit it.
    /// @param from The payer, who signed.
    /// @param to The payee.
    /// @param value The amount, in the token's units.
    /// @param validAfter The authorization is valid only after this time (unix seconds).
    /// @param validBefore The authorization is valid only before this time (unix seconds).
    /// @param nonce The payer's unique nonce for this authorization.
    /// @param v The signature's recovery id.
    /// @param r The signature's r.
    /// @param s The signature's s.
    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external;
    /// @notice EIP-3009: whether `authorizer` has used (or cancelled) `nonce`.
    /// @param authorizer The payer.
    /// @param nonce The nonce.
    /// @return True once used or cancelled.
    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool);
    /// @notice ERC-20: the balance of `who`.
    /// @param who The holder.
    /// @return The balance, in the token's units.
    function balanceOf(address who) external view returns (uint256);
    /// @notice ERC-20: moves `value` of the caller's tokens to `to`.
    /// @param to The payee.
    /// @param value The amount.
    /// @return True on success.
    function transfer(address to, uint256 value) external returns (bool);
}

/// @notice A plaintiff's EIP-3009 authorization of the token filing fee to the factory, as a stock
/// x402 client signs it ("exact" scheme: TransferWithAuthorization, `from` the plaintiff, `to` the
/// factory). `signature` is the 65-byte r ‖ s ‖ v.
struct FeeAuthorization {
    uint256 value;
    uint256 validAfter;
    uint256 validBefore;
    bytes32 nonce;
    bytes signature;
}
