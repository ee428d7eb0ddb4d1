// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {JudgeResult} from "./CourtTypes.sol";

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
