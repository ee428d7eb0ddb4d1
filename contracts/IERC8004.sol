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

interface IERC8004Identity {
    function ownerOf(uint256 agentId) external view returns (address);
    function getApproved(uint256 agentId) external view returns (address);
    function isApprovedForAll(address owner, address operator) external view returns (bool);
    function tokenURI(uint256 agentId) external view returns (string memory);
    function getAgentWallet(uint256 agentId) external view returns (address);
}

/// @notice Not part of ERC-8004: our IdentityRegistry's index from an agent wallet to its agent,
/// which lets the court find a party's agent without the party linking it first.
interface IAgentWalletIndex {
    function agentIdOf(address wallet) external view returns (uint256);
}

interface IERC8004Reputation {
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

    function getSummary(uint256 agentId, address[] calldata clientAddresses, string calldata tag1, string calldata tag2)
        external
        view
        returns (uint64 count, int128 summaryValue, uint8 summaryValueDecimals);
}

/// @notice What the court registry calls when a case ends (CourtReputation).
interface ICaseOutcomeHook {
    /// @param kind 0 a verdict (a won, b lost), 1 a default (a won, b never answered), 2 a dismissal.
    function recordOutcome(address caseAddr, address a, address b, uint8 kind) external;
}
