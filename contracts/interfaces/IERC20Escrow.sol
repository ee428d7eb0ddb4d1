// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The ERC-20 calls the job escrow makes.
interface IERC20Escrow {
    /// @notice ERC-20: moves `value` of the caller's tokens to `to`.
    /// @param to The payee.
    /// @param value The amount.
    /// @return True on success.
    function transfer(address to, uint256 value) external returns (bool);
    /// @notice ERC-20: moves `value` of `from`'s tokens to `to` out of the caller's allowance.
    /// @param from The payer.
    /// @param to The payee.
    /// @param value The amount.
    /// @return True on success.
    function transferFrom(address from, address to, uint256 value) external returns (bool);
    /// @notice ERC-20: the balance of `who`.
    /// @param who The holder.
    /// @return The balance.
    function balanceOf(address who) external view returns (uint256);
}
