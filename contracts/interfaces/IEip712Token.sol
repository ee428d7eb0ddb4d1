// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The EIP-712 domain of an EIP-3009 token (USDC's, TestUSD's), to check an authorization's
/// signature here when the token has used it already.
interface IEip712Token {
    /// @notice The token's EIP-712 domain separator.
    /// @return The separator.
    function DOMAIN_SEPARATOR() external view returns (bytes32);
}
