// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CaseState, Outcome} from "./CourtTypes.sol";

/// @notice The DisputeCase reads the arbitrator derives a ruling from.
interface IArbitratedCase {
    /// @notice The case's state.
    /// @return The state.
    function state() external view returns (CaseState);
    /// @notice The case's outcome so far.
    /// @return The outcome (None until a verdict, a default or a dismissal).
    function outcome() external view returns (Outcome);
    /// @notice Whether the case's money was paid out (its outcome final).
    /// @return True once settled.
    function settled() external view returns (bool);
}
