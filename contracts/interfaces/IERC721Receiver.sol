// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice ERC-721's receiver hook, which `safeTransferFrom` calls on a contract recipient.
interface IERC721Receiver {
    /// @notice Tells a contract it received a token; it accepts by returning this function's selector.
    /// @param operator Who made the transfer.
    /// @param from The previous owner.
    /// @param tokenId The token (the agent id).
    /// @param data The data passed to `safeTransferFrom`.
    /// @return The selector of `onERC721Received` to accept; anything else refuses.
    function onERC721Received(address operator, address from, uint256 tokenId, bytes calldata data)
        external
        returns (bytes4);
}
