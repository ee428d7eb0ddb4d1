// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CaseState} from "./CourtTypes.sol";

/// @notice What a case calls on its factory (CaseFactory).
interface ICaseFactory {
    /// @notice The calling case moved from state `from` to `to`; only a case of this factory.
    /// @param from The state it left.
    /// @param to The state it is in now.
    function onCaseChanged(CaseState from, CaseState to) external;
}
