// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IDrawEntropy} from "../interfaces/IDrawEntropy.sol";

/// @title Draw entropy from the hash of the block that armed the draw.
/// @notice Nobody who sends a transaction can know the hash of the block their transaction lands in,
/// so a party or keeper cannot know the panel when the draw is armed, and once the hash exists the
/// panel is fixed whatever anyone sends. What it does not protect against: the block producer,
/// who chooses the block's contents and so can withhold a block whose hash it dislikes. On a chain
/// where that matters, deploy the court with a VRF behind IDrawEntropy instead.
/// A hash is readable for 256 blocks; after that the ticket is Expired and the case re-arms.
contract BlockhashEntropy is IDrawEntropy {
    function arm() external view returns (uint256 ticket) {
        return block.number;
    }

    function entropyOf(uint256 ticket) external view returns (bytes32 value, Status status) {
        if (block.number <= ticket) return (bytes32(0), Status.Pending);
        bytes32 h = blockhash(ticket);
        if (h == bytes32(0)) return (bytes32(0), Status.Expired);
        return (keccak256(abi.encode(h, ticket)), Status.Ready);
    }
}
