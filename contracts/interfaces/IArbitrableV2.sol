// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IArbitratorV2} from "./IArbitratorV2.sol";

/// @notice Kleros' arbitration standard (IArbitratorV2 / IArbitrableV2), the parts docket implements:
/// an arbitrable contract asks the arbitrator for a dispute and pays its cost; the arbitrator calls
/// `rule` back once, when the ruling is final. Ruling 0 is reserved for "refused to arbitrate".
interface IArbitrableV2 {
    /// @notice The arbitrable received a ruling.
    /// @param arbitrator The arbitrator that gave it.
    /// @param disputeID The arbitrator's dispute id.
    /// @param ruling The ruling (0 refused, then 1..choices).
    event Ruling(IArbitratorV2 indexed arbitrator, uint256 indexed disputeID, uint256 ruling);

    /// @notice Gives the final ruling of a dispute; only the arbitrator may call it.
    /// @param disputeID The arbitrator's dispute id.
    /// @param ruling The ruling (0 refused, then 1..choices).
    function rule(uint256 disputeID, uint256 ruling) external;
}
