// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

// The court's shared types: what its contracts pass one another and what their ABIs return. The
// interfaces they talk to each other through are beside this file, one a file.

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
