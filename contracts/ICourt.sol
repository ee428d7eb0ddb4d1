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
}

interface ICourtRegistry {
    function isEligibleJudge(address judge) external view returns (bool);
    function eligibleJudges() external view returns (address[] memory);
    function judgeAssigned(address judge) external;
    function judgeVoted(address judge) external;
    function judgeReleased(address judge, JudgeResult result) external;
    function creditRewards(address[] calldata judges, uint256 each) external payable;
    function recordParties(address winner, address loser, bool noShow) external;
    function registerCase(address caseAddr) external;
}

interface ICaseFactory {
    function onCaseChanged(CaseState from, CaseState to) external;
}
