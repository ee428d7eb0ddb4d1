// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice ERC-1271: how a contract wallet says a signature is its own.
interface IERC1271 {
    /// @notice Whether `signature` is the wallet's valid signature of `hash`.
    /// @param hash The signed digest.
    /// @param signature The signature, in whatever form the wallet accepts.
    /// @return The selector of `isValidSignature` when valid; anything else means invalid.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4);
}
