// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice What the court registry calls when a case ends (CourtReputation).
interface ICaseOutcomeHook {
    /// @notice A case ended; only the court registry calls it.
    /// @param caseAddr The case.
    /// @param a The winner (for a dismissal: the plaintiff).
    /// @param b The loser (for a dismissal: the defendant).
    /// @param kind 0 a verdict (a won, b lost), 1 a default (a won, b never answered), 2 a dismissal.
    /// A party the case is not on record for is given as the zero address.
    function recordOutcome(address caseAddr, address a, address b, uint8 kind) external;
}
