// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IArbitrableV2} from "./IArbitrableV2.sol";

/// @notice Kleros' arbitrator standard (IArbitratorV2), the parts docket implements (DocketArbitrator):
/// disputes created and paid for by arbitrables, their cost, and the ruling given once.
interface IArbitratorV2 {
    /// @notice A dispute was created.
    /// @param disputeID The new dispute's id.
    /// @param arbitrable The contract that created it (and gets the ruling).
    event DisputeCreation(uint256 indexed disputeID, IArbitrableV2 indexed arbitrable);

    /// @notice The final ruling of a dispute was given.
    /// @param arbitrable The contract the ruling is for.
    /// @param disputeID The dispute.
    /// @param ruling The ruling.
    event Ruling(IArbitrableV2 indexed arbitrable, uint256 indexed disputeID, uint256 ruling);

    /// @notice Creates a dispute; the caller is the arbitrable and must pay `arbitrationCost(extraData)`.
    /// @param numberOfChoices How many rulings beyond 0 the dispute may get.
    /// @param extraData The arbitrator's parameters for the dispute (court, panel size, ...).
    /// @return disputeID The new dispute's id.
    function createDispute(uint256 numberOfChoices, bytes calldata extraData)
        external
        payable
        returns (uint256 disputeID);

    /// @notice What a dispute with these parameters costs.
    /// @param extraData The arbitrator's parameters for the dispute.
    /// @return cost The cost in the native coin.
    function arbitrationCost(bytes calldata extraData) external view returns (uint256 cost);

    /// @notice The ruling a dispute has now (final once the arbitrator emitted `Ruling`).
    /// @param disputeID The dispute.
    /// @return ruling The current ruling.
    /// @return tied Whether the votes are tied.
    /// @return overridden Whether the ruling was overridden (never, here).
    function currentRuling(uint256 disputeID) external view returns (uint256 ruling, bool tied, bool overridden);
}
