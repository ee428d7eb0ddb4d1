// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The case read that tells the winner of a verdict apart from the plaintiff.
interface ICasePlaintiff {
    /// @notice The plaintiff.
    /// @return The plaintiff.
    function plaintiff() external view returns (address);
}
