// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CaseState, Outcome, JudgeResult} from "../interfaces/CourtTypes.sol";
import {CaseData} from "./CaseStore.sol";
import {CaseRules} from "./CaseRules.sol";

/// @title A case's books: the final payout, judges' scores and release, refunds, deferred payments.
/// @notice A linked library: a case runs it by DELEGATECALL on its own storage, so the money moves
/// from the case and its events are the case's. The case (or CaseVoting) checks that the case may
/// end before calling. Every payout is pushed last with bounded gas; one a recipient refuses is kept
/// for it to `withdraw`, so no recipient can block the case. Judges of every round are scored once,
/// against the case's final outcome.
library CasePayouts {
    using CaseRules for CaseData;

    /// @notice Nothing is owed to the caller.
    error NothingToWithdraw();

    /// @notice The case ended with a verdict and paid out.
    /// @param winner The winning party.
    /// @param payout What the winner received (the stakes and appeal bond, less the court fee).
    /// @param courtFee The court fee taken (the arbitration fee included).
    /// @param judgeRewards The part of it shared by the judges who voted with the final outcome.
    event Settled(address indexed winner, uint256 payout, uint256 courtFee, uint256 judgeRewards);
    /// @notice The defendant did not respond in time: the plaintiff won by default, stake returned.
    /// @param plaintiff The plaintiff.
    event Defaulted(address indexed plaintiff);
    /// @notice No verdict before the deadline: the case was dismissed and the stakes refunded.
    event Dismissed();
    /// @notice A payout was refused by its recipient and kept for it to withdraw.
    /// @param to The recipient.
    /// @param amount The amount kept.
    event PaymentDeferred(address indexed to, uint256 amount);
    /// @notice A deferred payout was collected.
    /// @param to The recipient.
    /// @param amount The amount.
    event Withdrawn(address indexed to, uint256 amount);

    /// @notice Ends the case on its final outcome (already set): scores and releases every judge,
    /// records the parties, sends the court fee and the judges' rewards to the registry, moves the
    /// case to Resolved (settled) and pays the winner last.
    /// @param s The case.
    /// @param currentNoShows Whether the current round's judges who did not vote are no-shows (an
    /// appeal that lapsed).
    function finalize(CaseData storage s, bool currentNoShows) external {
        s.settled = true;
        bool plaintiffWins = s.outcome == Outcome.PlaintiffWon;
        address winner = plaintiffWins ? s.plaintiff : s.defendant;
        address loser = plaintiffWins ? s.defendant : s.plaintiff;
        uint256 pot = s.plaintiffStake + s.defendantStake + s.appealBondPaid;
        uint256 stakeFee = (pot * s.terms.courtFeeBps) / 10_000;
        uint256 fee = stakeFee + s.arbitrationFee;
        uint256 rewardPool = (fee * s.terms.judgeRewardBps) / 10_000;
        uint8 winning = plaintiffWins ? CaseRules.FOR_PLAINTIFF : CaseRules.FOR_DEFENDANT;
        address[] memory rewarded = _votedFor(s, winning);
        uint256 n = rewarded.length;
        uint256 each = n == 0 ? 0 : rewardPool / n;
        _releaseJudges(s, winning, currentNoShows);
        s.registry.recordParties(winner, loser, false);
        // The whole fee goes to the registry: `each` to every rewarded judge, the rest to the treasury.
        s.registry.creditRewards{value: fee}(rewarded, each);
        uint256 payout = pot - stakeFee;
        emit Settled(winner, payout, fee, each * n);
        s.moveTo(CaseState.Resolved);
        _pay(s, winner, payout);
    }

    /// @notice The defendant never answered: the plaintiff wins by default and gets the whole stake
    /// back (no court fee); an arbitration fee goes to the court, no judge having earned it.
    /// @param s The case.
    function payDefault(CaseData storage s) external {
        s.outcome = Outcome.PlaintiffWon;
        s.resolvedAt = uint64(block.timestamp);
        s.reasonCode = 3;
        s.settled = true;
        address plaintiff = s.plaintiff;
        s.registry.recordParties(plaintiff, s.defendant, true);
        emit Defaulted(plaintiff);
        s.moveTo(CaseState.Defaulted);
        _feeToCourt(s);
        _pay(s, plaintiff, s.plaintiffStake);
    }

    /// @notice No verdict in the first round: dismisses the case. Voters are released unscored (no
    /// final outcome to agree with), the panel's judges who never (revealed a) vote are no-shows;
    /// stakes and any appeal bond are refunded, an arbitration fee goes to the court.
    /// @param s The case.
    function dismiss(CaseData storage s) external {
        _releaseJudges(s, CaseRules.NO_VOTE, true);
        s.outcome = Outcome.Dismissed;
        s.resolvedAt = uint64(block.timestamp);
        s.reasonCode = 4;
        s.settled = true;
        s.registry.recordDismissal(s.plaintiff, s.defendant);
        emit Dismissed();
        s.moveTo(CaseState.Dismissed);
        _feeToCourt(s);
        _pay(s, s.plaintiff, s.plaintiffStake);
        if (s.defendantStake > 0) _pay(s, s.defendant, s.defendantStake);
        // The appellant is the first round's loser (only it may appeal).
        if (s.appealBondPaid > 0) _pay(s, s.firstRoundLoser, s.appealBondPaid);
    }

    /// @notice Sends the caller what it is owed: a payout it refused when the case ended.
    /// @param s The case.
    function withdraw(CaseData storage s) external {
        uint256 amount = s.owed[msg.sender];
        if (amount == 0) revert NothingToWithdraw();
        s.owed[msg.sender] = 0;
        emit Withdrawn(msg.sender, amount);
        (bool ok,) = msg.sender.call{value: amount}("");
        require(ok, "DisputeCase: withdrawal transfer failed");
    }

    /// @dev Ends every judge's service on the case, scored against the final outcome (`winning`, a
    /// vote code; NO_VOTE when the case was dismissed). A voter agreeing with it is in the majority,
    /// one disagreeing in the minority, whatever the round. With hidden votes every judge who did
    /// not reveal is a no-show (nothing is decided before the reveals are in or the reveal phase is
    /// over); with public votes, on dismissal every current judge who did not vote is one, and a
    /// judge who had not voted when the majority formed is released unscored.
    function _releaseJudges(CaseData storage s, uint8 winning, bool currentNoShows) private {
        uint8 rounds = s.round;
        bool hidden = s.terms.hiddenVotes;
        for (uint8 r = 1; r <= rounds; r++) {
            address[] storage seated = s.panel[r];
            for (uint256 i = 0; i < seated.length; i++) {
                address j = seated[i];
                uint8 cast = s.votes[r][j];
                JudgeResult result = JudgeResult.Unscored;
                if (cast != CaseRules.NO_VOTE) {
                    if (winning != CaseRules.NO_VOTE) result = cast == winning ? JudgeResult.Majority : JudgeResult.Minority;
                } else if (hidden || (currentNoShows && r == rounds)) {
                    result = JudgeResult.NoShow;
                }
                s.registry.judgeReleased(j, result);
            }
        }
    }

    /// @dev The judges of any round whose vote is `winning`: they share the reward pool.
    function _votedFor(CaseData storage s, uint8 winning) private view returns (address[] memory rewarded) {
        rewarded = new address[](uint256(s.terms.panelSize) + s.terms.appealPanelSize);
        uint256 n = 0;
        uint8 rounds = s.round;
        for (uint8 r = 1; r <= rounds; r++) {
            address[] storage seated = s.panel[r];
            for (uint256 i = 0; i < seated.length; i++) {
                if (s.votes[r][seated[i]] == winning) rewarded[n++] = seated[i];
            }
        }
        assembly {
            mstore(rewarded, n)
        }
    }

    /// @dev No verdict (a default, a dismissal): no judge earned the arbitration fee; the court keeps it.
    function _feeToCourt(CaseData storage s) private {
        uint256 fee = s.arbitrationFee;
        if (fee > 0) s.registry.creditRewards{value: fee}(new address[](0), 0);
    }

    /// @dev Pushes a payout with bounded gas; a refusal is kept in `owed` for `withdraw()`.
    function _pay(CaseData storage s, address to, uint256 amount) private {
        if (amount == 0) return;
        (bool ok,) = to.call{value: amount, gas: 50_000}("");
        if (!ok) {
            s.owed[to] += amount;
            emit PaymentDeferred(to, amount);
        }
    }
}
