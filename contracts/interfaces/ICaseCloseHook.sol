// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice What the factory tells the arbitrator that filed a case, once, when the case is final.
interface ICaseCloseHook {
    /// @notice A case the caller filed is final; only the factory calls it.
    /// @param caseAddr The case.
    function caseClosed(address caseAddr) external;
}
