// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

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
