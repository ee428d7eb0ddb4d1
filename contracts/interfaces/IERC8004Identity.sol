// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

// The parts of ERC-8004 ("Trustless Agents", Identity and Reputation registries) the court talks to
// (IERC8004Identity, IERC8004Reputation). Any registry written to the standard serves; ours are
// IdentityRegistry and ReputationRegistry.

/// @dev One on-chain metadata entry given to `register`.
struct MetadataEntry {
    string metadataKey;
    bytes metadataValue;
}

/// @notice The ERC-8004 Identity Registry reads the court uses (an ERC-721 of agents).
interface IERC8004Identity {
    /// @notice An agent's owner.
    /// @param agentId The agent.
    /// @return The owner.
    function ownerOf(uint256 agentId) external view returns (address);
    /// @notice The address approved for an agent.
    /// @param agentId The agent.
    /// @return The approved address (zero: none).
    function getApproved(uint256 agentId) external view returns (address);
    /// @notice Whether `operator` may act for all of `owner`'s agents.
    /// @param owner The owner.
    /// @param operator The operator.
    /// @return True when allowed.
    function isApprovedForAll(address owner, address operator) external view returns (bool);
    /// @notice An agent's URI (its registration file).
    /// @param agentId The agent.
    /// @return The URI.
    function tokenURI(uint256 agentId) external view returns (string memory);
    /// @notice An agent's wallet.
    /// @param agentId The agent.
    /// @return The wallet (zero if none).
    function getAgentWallet(uint256 agentId) external view returns (address);
}
