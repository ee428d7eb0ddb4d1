// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice A filing-fee token as the factory uses it: any EIP-3009 token (USDC's FiatToken surface),
/// plus the ERC-20 calls to check what arrived and forward it.
interface IFeeToken {
    /// @notice EIP-3009: moves `value` from `from` to `to` on `from`'s signed authorization; anyone may submit it.
    /// @param from The payer, who signed.
    /// @param to The payee.
    /// @param value The amount, in the token's units.
    /// @param validAfter The authorization is valid only after this time (unix seconds).
    /// @param validBefore The authorization is valid only before this time (unix seconds).
    /// @param nonce The payer's unique nonce for this authorization.
    /// @param v The signature's recovery id.
    /// @param r The signature's r.
    /// @param s The signature's s.
    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external;
    /// @notice EIP-3009: whether `authorizer` has used (or cancelled) `nonce`.
    /// @param authorizer The payer.
    /// @param nonce The nonce.
    /// @return True once used or cancelled.
    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool);
    /// @notice ERC-20: the balance of `who`.
    /// @param who The holder.
    /// @return The balance, in the token's units.
    function balanceOf(address who) external view returns (uint256);
    /// @notice ERC-20: moves `value` of the caller's tokens to `to`.
    /// @param to The payee.
    /// @param value The amount.
    /// @return True on success.
    function transfer(address to, uint256 value) external returns (bool);
}
