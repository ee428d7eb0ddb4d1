// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CaseState, Outcome} from "../interfaces/CourtTypes.sol";
import {CaseData, WrongState, DeliberationClosed} from "./CaseStore.sol";
import {CaseRules} from "./CaseRules.sol";
import {CasePayouts} from "./CasePayouts.sol";

/// @title A case's voting: public votes, hidden votes (commit, then reveal), the tally and the verdict.
/// @notice A linked library (Kleros v2's dispute kit, for one case): a case runs it by DELEGATECALL on
/// its own storage, so its events are the case's and `msg.sender` is the judge. The case checks the
/// case's state and reentrancy before calling; this checks who may vote and when. A final verdict
/// (on appeal, or the first round's standing once an appeal lapsed) is paid out by CasePayouts.
library CaseVoting {
    using CaseRules for CaseData;

    /// @notice Longest reasons a judge may reveal with a hidden vote, in bytes.
    uint256 internal constant MAX_JUSTIFICATION_LENGTH = 512;

    /// @notice The caller is not seated on the current round's panel.
    /// @param caller The caller.
    error NotAssignedJudge(address caller);
    /// @notice The judge already voted (or revealed) in this round.
    /// @param judge The judge.
    error AlreadyVoted(address judge);
    /// @notice The deliberation deadline has not passed yet.
    /// @param deadline The deadline.
    error DeadlineNotReached(uint64 deadline);
    /// @notice The case's court hides votes: commit, then reveal.
    error VotesAreHidden();
    /// @notice The case's court votes in the open: `vote`.
    error VotesArePublic();
    /// @notice The judge already committed in this round.
    /// @param judge The judge.
    error AlreadyCommitted(address judge);
    /// @notice The caller has no commitment to reveal in this round.
    /// @param caller The caller.
    error NotCommitted(address caller);
    /// @notice A commitment must not be zero.
    error InvalidCommitment();
    /// @notice The commit phase is over.
    /// @param deadline The commit deadline.
    error CommitPhaseClosed(uint64 deadline);
    /// @notice Reveals open once every judge committed or the commit deadline passed.
    /// @param commitDeadline The commit deadline.
    error RevealPhaseNotOpen(uint64 commitDeadline);
    /// @notice The vote and salt revealed are not what the judge committed.
    error CommitmentMismatch();
    /// @notice The reasons are longer than allowed.
    /// @param max The most bytes allowed.
    error JustificationTooLong(uint256 max);

    /// @notice A judge voted in the open.
    /// @param judge The judge.
    /// @param plaintiffWins The vote: true for the plaintiff.
    /// @param round The round (1, or 2 on appeal).
    event VoteCast(address indexed judge, bool plaintiffWins, uint8 round);
    /// @notice A judge committed a hidden vote.
    /// @param judge The judge.
    /// @param round The round.
    event VoteCommitted(address indexed judge, uint8 round);
    /// @notice A judge revealed a hidden vote.
    /// @param judge The judge.
    /// @param plaintiffWins The vote: true for the plaintiff.
    /// @param round The round.
    /// @param justification The judge's reasons (may be empty).
    event VoteRevealed(address indexed judge, bool plaintiffWins, uint8 round, string justification);
    /// @notice A round reached its outcome (final unless it is the first round and an appeal follows).
    /// @param outcome The outcome.
    /// @param round The round that reached it.
    event Verdict(Outcome outcome, uint8 round);

    /// @notice An assigned judge votes once; a majority of the panel decides. Public votes only.
    /// @param s The case.
    /// @param plaintiffWins The vote: true for the plaintiff.
    function vote(CaseData storage s, bool plaintiffWins) external {
        if (s.terms.hiddenVotes) revert VotesAreHidden();
        uint8 r = s.round;
        if (!s.servedInRound(r, msg.sender)) revert NotAssignedJudge(msg.sender);
        if (s.votes[r][msg.sender] != CaseRules.NO_VOTE) revert AlreadyVoted(msg.sender);
        if (block.timestamp > s.deliberationDeadline) revert DeliberationClosed(s.deliberationDeadline);
        emit VoteCast(msg.sender, plaintiffWins, r);
        _count(s, plaintiffWins);
    }

    /// @notice Hidden votes, phase 1: an assigned judge commits
    /// keccak256(abi.encode(case, judge, round, plaintiffWins, salt)) before the commit deadline.
    /// @param s The case.
    /// @param commitment The hash.
    function commitVote(CaseData storage s, bytes32 commitment) external {
        if (!s.terms.hiddenVotes) revert VotesArePublic();
        uint8 r = s.round;
        if (!s.servedInRound(r, msg.sender)) revert NotAssignedJudge(msg.sender);
        if (s.commitments[r][msg.sender] != bytes32(0)) revert AlreadyCommitted(msg.sender);
        if (commitment == bytes32(0)) revert InvalidCommitment();
        if (block.timestamp > s.commitDeadline) revert CommitPhaseClosed(s.commitDeadline);
        s.commitments[r][msg.sender] = commitment;
        s.commitCount[r] += 1;
        emit VoteCommitted(msg.sender, r);
        s.touched();
    }

    /// @notice Hidden votes, phase 2: once every judge committed or the commit deadline passed, and
    /// before the reveal deadline, a judge reveals its vote and salt, with optional reasons.
    /// @param s The case.
    /// @param plaintiffWins The vote committed.
    /// @param salt The salt committed.
    /// @param justification Reasons, at most MAX_JUSTIFICATION_LENGTH bytes (may be empty).
    function revealVote(CaseData storage s, bool plaintiffWins, bytes32 salt, string calldata justification)
        external
    {
        if (!s.terms.hiddenVotes) revert VotesArePublic();
        uint8 r = s.round;
        bytes32 c = s.commitments[r][msg.sender];
        if (c == bytes32(0)) revert NotCommitted(msg.sender);
        if (s.votes[r][msg.sender] != CaseRules.NO_VOTE) revert AlreadyVoted(msg.sender);
        if (block.timestamp <= s.commitDeadline && s.commitCount[r] < s.panelSize()) {
            revert RevealPhaseNotOpen(s.commitDeadline);
        }
        uint64 revealBy = s.revealDeadline();
        if (block.timestamp > revealBy) revert DeliberationClosed(revealBy);
        if (bytes(justification).length > MAX_JUSTIFICATION_LENGTH) {
            revert JustificationTooLong(MAX_JUSTIFICATION_LENGTH);
        }
        if (keccak256(abi.encode(address(this), msg.sender, r, plaintiffWins, salt)) != c) {
            revert CommitmentMismatch();
        }
        if (bytes(justification).length > 0) s.justifications[r][msg.sender] = justification;
        emit VoteRevealed(msg.sender, plaintiffWins, r, justification);
        _count(s, plaintiffWins);
    }

    /// @notice When no verdict came by the deliberation deadline, ends the case. With hidden votes,
    /// if a majority of the panel revealed the same vote, that is the verdict. Otherwise, in the
    /// first round the case is dismissed (stakes refunded, judges who never voted slashed); on
    /// appeal the first-round verdict stands and is paid out, the appeal bond with it (judges of the
    /// appeal who never voted are slashed): an appeal that cannot be heard never helps the appellant.
    /// @param s The case.
    function resolveAfterDeadline(CaseData storage s) external {
        CaseState state = s.state;
        if (state != CaseState.Active && state != CaseState.Deliberating && state != CaseState.Appealed) {
            revert WrongState(state);
        }
        if (block.timestamp <= s.deliberationDeadline) revert DeadlineNotReached(s.deliberationDeadline);
        // No panel came: the armed draw stops waiting, and its pool's judges may leave again.
        if (state != CaseState.Deliberating) s.registry.drawSettled();
        // Hidden votes are counted when the reveal phase ends: a majority of the panel among the
        // revealed votes decides, and whoever did not reveal is a no-show.
        if (state == CaseState.Deliberating && s.terms.hiddenVotes) {
            uint256[2] storage t = s.tally[s.round];
            uint256 size = s.panelSize();
            if (t[0] * 2 > size || t[1] * 2 > size) {
                _verdict(s, t[0] * 2 > size);
                return;
            }
        }
        if (s.round == 2) {
            // The appeal lapsed: the first round's verdict is final.
            s.outcome = s.firstRoundLoser == s.defendant ? Outcome.PlaintiffWon : Outcome.DefendantWon;
            s.resolvedAt = uint64(block.timestamp);
            s.reasonCode = 5;
            emit Verdict(s.outcome, 2);
            CasePayouts.finalize(s, true);
            return;
        }
        CasePayouts.dismiss(s);
    }

    /// @dev Counts the sender's vote for the current round; a majority decides the round.
    /// With hidden votes nothing is decided before every committed vote is revealed: a judge who
    /// sees the majority form cannot keep a minority vote unrevealed to dodge its score.
    function _count(CaseData storage s, bool plaintiffWins) private {
        uint8 r = s.round;
        s.votes[r][msg.sender] = plaintiffWins ? CaseRules.FOR_PLAINTIFF : CaseRules.FOR_DEFENDANT;
        uint256[2] storage t = s.tally[r];
        t[plaintiffWins ? 0 : 1] += 1;
        s.registry.judgeVoted(msg.sender);
        uint256 size = s.panelSize();
        // The last reveal may be the minority's: the majority it completes is either side's.
        bool open = s.terms.hiddenVotes && t[0] + t[1] < s.commitCount[r];
        if (!open && t[0] * 2 > size) {
            _verdict(s, true);
        } else if (!open && t[1] * 2 > size) {
            _verdict(s, false);
        } else {
            s.touched();
        }
    }

    function _verdict(CaseData storage s, bool plaintiffWins) private {
        uint8 r = s.round;
        s.outcome = plaintiffWins ? Outcome.PlaintiffWon : Outcome.DefendantWon;
        s.resolvedAt = uint64(block.timestamp);
        s.reasonCode = r == 1 ? 1 : 2;
        // Judges stay bound to the case (and unscored) until the outcome is final: an appeal may
        // reverse it, and a judge proven right on appeal must not have been slashed for round 1.
        emit Verdict(s.outcome, r);
        if (r == 1) {
            s.firstRoundLoser = plaintiffWins ? s.defendant : s.plaintiff;
            s.appealDeadline = uint64(block.timestamp) + s.terms.appealWindow;
            s.moveTo(CaseState.Resolved);
        } else {
            // The appeal verdict is final: settle the books, then pay out last.
            CasePayouts.finalize(s, false);
        }
    }
}
