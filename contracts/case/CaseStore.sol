// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CaseState, Outcome, CaseTerms} from "../interfaces/CourtTypes.sol";
import {ICourtRegistry} from "../interfaces/ICourtRegistry.sol";

// The state of one case that its roles share, and the errors they all raise (the rules they all
// apply are CaseRules.sol's). A case (DisputeCase, an EIP-1167 clone) holds a `CaseData` in its own
// storage and runs its voting (CaseVoting) and payouts (CasePayouts) as linked libraries by
// DELEGATECALL on it: the state stays in the case and their events are the case's own. State only
// the lifecycle core touches stays in DisputeCase.

/// @notice The case is not in a state that allows this call.
/// @param current The case's state.
error WrongState(CaseState current);
/// @notice The deliberation (or, with hidden votes, the reveal) deadline has passed.
/// @param deadline The deadline.
error DeliberationClosed(uint64 deadline);

/// @dev What the case's roles share. Packed so that most writes land in a slot filing already
/// filled (each address with a time beside it), which keeps every step's gas at or under what it was
/// when one contract held it all.
struct CaseData {
    address factory;
    CaseState state;
    Outcome outcome;
    /// @dev 1, or 2 after an appeal.
    uint8 round;
    bool settled;
    /// @dev Why the current outcome was reached; see DisputeCase.verdictReason().
    uint8 reasonCode;
    /// @dev The appeal was used; the appellant is then the first round's loser.
    bool appealUsed;
    ICourtRegistry registry;
    uint64 resolvedAt;
    address plaintiff;
    /// @dev Hidden votes: the current round's commit deadline; its reveal deadline follows from it
    /// (CaseRules.revealDeadline), and is the round's deliberationDeadline.
    uint64 commitDeadline;
    address defendant;
    uint64 appealDeadline;
    uint64 filedAt;
    uint64 responseDeadline;
    uint64 deliberationDeadline;
    /// @dev The block whose end state of the judge pool the armed draw reads.
    uint64 drawPoolBlock;
    /// @dev The round-1 loser, who alone may appeal.
    address firstRoundLoser;
    uint256 plaintiffStake;
    uint256 defendantStake;
    uint256 arbitrationFee;
    uint256 appealBondPaid;
    CaseTerms terms;
    mapping(uint8 => address[]) panel;
    /// @dev Vote codes (CaseRules.NO_VOTE, FOR_PLAINTIFF, FOR_DEFENDANT), by round and judge.
    mapping(uint8 => mapping(address => uint8)) votes;
    mapping(uint8 => uint256[2]) tally;
    mapping(uint8 => mapping(address => bytes32)) commitments;
    mapping(uint8 => uint256) commitCount;
    mapping(uint8 => mapping(address => string)) justifications;
    /// @dev Payouts a recipient refused, kept for it to withdraw.
    mapping(address => uint256) owed;
}
