// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The parts of ERC-8004 ("Trustless Agents", Identity and Reputation registries) the court
/// talks to. Any registry written to the standard serves; ours are IdentityRegistry and
/// ReputationRegistry.

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

/// @notice Not part of ERC-8004: our IdentityRegistry's index from an agent wallet to its agent,
/// which lets the court find a party's agent without the party linking it first.
interface IAgentWalletIndex {
    /// @notice The agent whose wallet `wallet` is (the latest to take it).
    /// @param wallet The wallet.
    /// @return The agent id, or 0 if none.
    function agentIdOf(address wallet) external view returns (uint256);
}

/// @notice The ERC-8004 Reputation Registry calls the court uses.
interface IERC8004Reputation {
    /// @notice Gives an agent feedback from the caller (its client), which may not be the agent's
    /// owner or operator.
    /// @param agentId The agent.
    /// @param value The score, a fixed-point number with `valueDecimals` decimals.
    /// @param valueDecimals The score's decimals.
    /// @param tag1 A first tag to filter by.
    /// @param tag2 A second tag to filter by.
    /// @param endpoint The endpoint the feedback is about.
    /// @param feedbackURI Where the full feedback is.
    /// @param feedbackHash The hash of that file (zero if none).
    function giveFeedback(
        uint256 agentId,
        int128 value,
        uint8 valueDecimals,
        string calldata tag1,
        string calldata tag2,
        string calldata endpoint,
        string calldata feedbackURI,
        bytes32 feedbackHash
    ) external;

    /// @notice The count and average of an agent's unrevoked feedback from the given clients,
    /// filtered by tags.
    /// @param agentId The agent.
    /// @param clientAddresses The clients whose feedback counts (not empty).
    /// @param tag1 Only feedback with this first tag (empty: any).
    /// @param tag2 Only feedback with this second tag (empty: any).
    /// @return count How many feedbacks count.
    /// @return summaryValue Their average value.
    /// @return summaryValueDecimals The average's decimals.
    function getSummary(uint256 agentId, address[] calldata clientAddresses, string calldata tag1, string calldata tag2)
        external
        view
        returns (uint64 count, int128 summaryValue, uint8 summaryValueDecimals);
}

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
