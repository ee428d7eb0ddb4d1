// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC8004Identity} from "../interfaces/IERC8004Identity.sol";
import {IERC8004Reputation} from "../interfaces/IERC8004Reputation.sol";

/// @title ERC-8004 Reputation Registry.
/// @notice Any client may give an agent feedback (a signed fixed-point value, optional tags, an
/// endpoint, a feedback URI and its hash), except the agent's own owner and operators. The values,
/// tags and revocations are stored, so contracts can read them; the URIs and hashes are only emitted.
/// @dev `getSummary` averages the matching feedback, each value scaled to the largest `valueDecimals`
/// among them (rounded toward zero); it needs the clients to trust, since unfiltered feedback is
/// open to Sybil spam.
contract ReputationRegistry is IERC8004Reputation {
    /// @notice The most decimals a feedback value may have.
    /// @return The limit.
    uint8 public constant MAX_VALUE_DECIMALS = 18;

    /// @notice The identity registry has no agent with this id.
    /// @param agentId The id given.
    error AgentNotFound(uint256 agentId);
    /// @notice An agent's owner and operators may not give it feedback.
    /// @param caller The caller.
    /// @param agentId The agent.
    error SelfFeedbackNotAllowed(address caller, uint256 agentId);
    /// @notice A value may have at most MAX_VALUE_DECIMALS decimals.
    /// @param valueDecimals The decimals given.
    error ValueDecimalsTooLarge(uint8 valueDecimals);
    /// @notice The client gave the agent no feedback with this index.
    /// @param agentId The agent.
    /// @param clientAddress The client.
    /// @param feedbackIndex The index given (they run from 1).
    error FeedbackNotFound(uint256 agentId, address clientAddress, uint64 feedbackIndex);
    /// @notice The feedback is revoked already.
    /// @param feedbackIndex The feedback's index.
    error AlreadyRevoked(uint64 feedbackIndex);
    /// @notice A summary needs the clients to trust (unfiltered feedback is open to Sybil spam).
    error ClientAddressesRequired();
    /// @notice The average does not fit in an int128.
    error SummaryOverflow();

    /// @notice ERC-8004: a client gave an agent feedback.
    /// @param agentId The agent.
    /// @param clientAddress The client.
    /// @param feedbackIndex The feedback's index among the client's for this agent, from 1.
    /// @param value The score, a fixed-point number with `valueDecimals` decimals.
    /// @param valueDecimals The score's decimals.
    /// @param indexedTag1 The first tag, indexed (its hash in the log topic).
    /// @param tag1 The first tag.
    /// @param tag2 The second tag.
    /// @param endpoint The endpoint the feedback is about.
    /// @param feedbackURI Where the full feedback is.
    /// @param feedbackHash The hash of that file.
    event NewFeedback(
        uint256 indexed agentId,
        address indexed clientAddress,
        uint64 feedbackIndex,
        int128 value,
        uint8 valueDecimals,
        string indexed indexedTag1,
        string tag1,
        string tag2,
        string endpoint,
        string feedbackURI,
        bytes32 feedbackHash
    );
    /// @notice ERC-8004: a client revoked one of its feedbacks.
    /// @param agentId The agent.
    /// @param clientAddress The client.
    /// @param feedbackIndex The feedback's index.
    event FeedbackRevoked(uint256 indexed agentId, address indexed clientAddress, uint64 indexed feedbackIndex);
    /// @notice ERC-8004: someone answered a feedback.
    /// @param agentId The agent.
    /// @param clientAddress The client that gave the feedback.
    /// @param feedbackIndex The feedback's index.
    /// @param responder Who answered.
    /// @param responseURI Where the answer is.
    /// @param responseHash The hash of that file.
    event ResponseAppended(
        uint256 indexed agentId,
        address indexed clientAddress,
        uint64 feedbackIndex,
        address indexed responder,
        string responseURI,
        bytes32 responseHash
    );

    struct Feedback {
        int128 value;
        uint8 valueDecimals;
        bool isRevoked;
        string tag1;
        string tag2;
    }

    address private immutable identity;
    /// @dev agentId => client => its feedback, feedbackIndex i at position i - 1.
    mapping(uint256 => mapping(address => Feedback[])) private feedback;
    mapping(uint256 => address[]) private clients;
    mapping(uint256 => mapping(address => bool)) private isClient;
    /// @dev agentId => client => feedbackIndex => who responded, and how often each.
    mapping(uint256 => mapping(address => mapping(uint64 => address[]))) private responders;
    mapping(uint256 => mapping(address => mapping(uint64 => mapping(address => uint64)))) private responses;

    constructor(address identityRegistry) {
        identity = identityRegistry;
    }

    /// @notice The identity registry whose agents this registry rates.
    /// @return The IdentityRegistry.
    function getIdentityRegistry() external view returns (address) {
        return identity;
    }

    function giveFeedback(
        uint256 agentId,
        int128 value,
        uint8 valueDecimals,
        string calldata tag1,
        string calldata tag2,
        string calldata endpoint,
        string calldata feedbackURI,
        bytes32 feedbackHash
    ) external {
        if (valueDecimals > MAX_VALUE_DECIMALS) revert ValueDecimalsTooLarge(valueDecimals);
        _refuseSelfFeedback(agentId);
        _store(agentId, value, valueDecimals, tag1, tag2);
        // endpoint, feedbackURI and feedbackHash are only emitted, read back from the calldata there.
        (endpoint, feedbackURI, feedbackHash);
        _emitNewFeedback();
    }

    /// @notice The client takes back one of its own feedback entries; it stays readable, marked revoked.
    /// @param agentId The agent.
    /// @param feedbackIndex The caller's feedback's index, from 1.
    function revokeFeedback(uint256 agentId, uint64 feedbackIndex) external {
        Feedback storage f = _entry(agentId, msg.sender, feedbackIndex);
        if (f.isRevoked) revert AlreadyRevoked(feedbackIndex);
        f.isRevoked = true;
        emit FeedbackRevoked(agentId, msg.sender, feedbackIndex);
    }

    /// @notice Anyone may answer a feedback entry (the agent showing a refund, a spam tagger).
    /// @param agentId The agent.
    /// @param clientAddress The client that gave the feedback.
    /// @param feedbackIndex The feedback's index, from 1.
    /// @param responseURI Where the answer is (only emitted).
    /// @param responseHash The hash of that file (only emitted).
    function appendResponse(
        uint256 agentId,
        address clientAddress,
        uint64 feedbackIndex,
        string calldata responseURI,
        bytes32 responseHash
    ) external {
        _entry(agentId, clientAddress, feedbackIndex);
        mapping(address => uint64) storage counts = responses[agentId][clientAddress][feedbackIndex];
        if (counts[msg.sender] == 0) responders[agentId][clientAddress][feedbackIndex].push(msg.sender);
        counts[msg.sender] += 1;
        emit ResponseAppended(agentId, clientAddress, feedbackIndex, msg.sender, responseURI, responseHash);
    }

    // ------------------------------------------------------------------ reads

    /// @notice Count and average of the unrevoked feedback `clientAddresses` gave the agent, matching
    /// `tag1` and `tag2` (an empty tag matches any).
    /// @param agentId The agent.
    /// @param clientAddresses The clients whose feedback counts (not empty).
    /// @param tag1 Only feedback with this first tag (empty: any).
    /// @param tag2 Only feedback with this second tag (empty: any).
    /// @return count How many feedbacks count.
    /// @return summaryValue Their average, each value scaled to `summaryValueDecimals` (rounded toward zero).
    /// @return summaryValueDecimals The largest decimals among them.
    function getSummary(uint256 agentId, address[] calldata clientAddresses, string calldata tag1, string calldata tag2)
        external
        view
        returns (uint64 count, int128 summaryValue, uint8 summaryValueDecimals)
    {
        if (clientAddresses.length == 0) revert ClientAddressesRequired();
        // Summed at 18 decimals (an int128 times 10^18 fits an int256), scaled down once at the end.
        int256 sum = 0;
        for (uint256 c = 0; c < clientAddresses.length; c++) {
            Feedback[] storage list = feedback[agentId][clientAddresses[c]];
            for (uint256 i = 0; i < list.length; i++) {
                Feedback storage f = list[i];
                if (f.isRevoked || !_matches(f, tag1, tag2)) continue;
                count += 1;
                if (f.valueDecimals > summaryValueDecimals) summaryValueDecimals = f.valueDecimals;
                sum += int256(f.value) * int256(10 ** (MAX_VALUE_DECIMALS - f.valueDecimals));
            }
        }
        if (count == 0) return (0, 0, 0);
        int256 average = sum / int256(uint256(count)) / int256(10 ** (MAX_VALUE_DECIMALS - summaryValueDecimals));
        if (average > type(int128).max || average < type(int128).min) revert SummaryOverflow();
        summaryValue = int128(average);
    }

    /// @notice One feedback entry, revoked or not.
    /// @param agentId The agent.
    /// @param clientAddress The client that gave it.
    /// @param feedbackIndex Its index, from 1.
    /// @return value The score.
    /// @return valueDecimals The score's decimals.
    /// @return tag1 The first tag.
    /// @return tag2 The second tag.
    /// @return isRevoked Whether the client revoked it.
    function readFeedback(uint256 agentId, address clientAddress, uint64 feedbackIndex)
        external
        view
        returns (int128 value, uint8 valueDecimals, string memory tag1, string memory tag2, bool isRevoked)
    {
        Feedback storage f = _entry(agentId, clientAddress, feedbackIndex);
        return (f.value, f.valueDecimals, f.tag1, f.tag2, f.isRevoked);
    }

    /// @dev readAllFeedback's answer, gathered in memory: seven arrays and the arguments do not fit the stack.
    struct FeedbackList {
        address[] clients;
        uint64[] feedbackIndexes;
        int128[] values;
        uint8[] valueDecimals;
        string[] tag1s;
        string[] tag2s;
        bool[] revokedStatuses;
    }

    /// @notice Every matching entry; no clients means every client of the agent.
    /// @param agentId The agent.
    /// @param clientAddresses The clients whose entries to read (empty: every client).
    /// @param tag1 Only entries with this first tag (empty: any).
    /// @param tag2 Only entries with this second tag (empty: any).
    /// @param includeRevoked Whether revoked entries are included.
    /// @return The client of each entry.
    /// @return Each entry's index among its client's.
    /// @return Each entry's score.
    /// @return Each score's decimals.
    /// @return Each entry's first tag.
    /// @return Each entry's second tag.
    /// @return Whether each entry is revoked.
    function readAllFeedback(
        uint256 agentId,
        address[] calldata clientAddresses,
        string calldata tag1,
        string calldata tag2,
        bool includeRevoked
    )
        external
        view
        returns (
            address[] memory, /* clients */
            uint64[] memory, /* feedbackIndexes */
            int128[] memory, /* values */
            uint8[] memory, /* valueDecimals */
            string[] memory, /* tag1s */
            string[] memory, /* tag2s */
            bool[] memory /* revokedStatuses */
        )
    {
        _answerAll(agentId, clientAddresses, tag1, tag2, includeRevoked);
    }

    /// @dev Ends the call with readAllFeedback's answer (never returns to it).
    function _answerAll(
        uint256 agentId,
        address[] calldata clientAddresses,
        string calldata tag1,
        string calldata tag2,
        bool includeRevoked
    ) private view {
        address[] memory from = clientAddresses;
        if (from.length == 0) from = clients[agentId];
        bytes memory encoded = abi.encode(_collect(agentId, from, tag1, tag2, includeRevoked));
        // abi.encode of the struct is one offset word, then exactly the seven return values' encoding.
        assembly {
            return(add(encoded, 0x40), sub(mload(encoded), 0x20))
        }
    }

    function _collect(
        uint256 agentId,
        address[] memory from,
        string calldata tag1,
        string calldata tag2,
        bool includeRevoked
    ) private view returns (FeedbackList memory l) {
        uint256 n = 0;
        for (uint256 pass = 0; pass < 2; pass++) {
            if (pass == 1) {
                l = FeedbackList(
                    new address[](n),
                    new uint64[](n),
                    new int128[](n),
                    new uint8[](n),
                    new string[](n),
                    new string[](n),
                    new bool[](n)
                );
                n = 0;
            }
            for (uint256 c = 0; c < from.length; c++) {
                Feedback[] storage list = feedback[agentId][from[c]];
                for (uint256 i = 0; i < list.length; i++) {
                    Feedback storage f = list[i];
                    if ((f.isRevoked && !includeRevoked) || !_matches(f, tag1, tag2)) continue;
                    if (pass == 1) {
                        l.clients[n] = from[c];
                        l.feedbackIndexes[n] = uint64(i + 1);
                        l.values[n] = f.value;
                        l.valueDecimals[n] = f.valueDecimals;
                        l.tag1s[n] = f.tag1;
                        l.tag2s[n] = f.tag2;
                        l.revokedStatuses[n] = f.isRevoked;
                    }
                    n++;
                }
            }
        }
    }

    /// @notice Responses to one entry (feedbackIndex 0: to every entry of the client; no client: of
    /// every client), from `responderList` (empty: from anyone).
    /// @param agentId The agent.
    /// @param clientAddress The client (zero: every client).
    /// @param feedbackIndex The entry (0: every entry).
    /// @param responderList Count only these responders (empty: anyone).
    /// @return count How many responses.
    function getResponseCount(
        uint256 agentId,
        address clientAddress,
        uint64 feedbackIndex,
        address[] calldata responderList
    ) external view returns (uint64 count) {
        address[] memory from;
        if (clientAddress != address(0)) {
            from = new address[](1);
            from[0] = clientAddress;
        } else {
            from = clients[agentId];
        }
        for (uint256 c = 0; c < from.length; c++) {
            uint64 first = 1;
            uint64 last = uint64(feedback[agentId][from[c]].length);
            if (feedbackIndex != 0) {
                if (feedbackIndex > last) continue;
                (first, last) = (feedbackIndex, feedbackIndex);
            }
            for (uint64 i = first; i <= last; i++) {
                count += _responsesTo(agentId, from[c], i, responderList);
            }
        }
    }

    /// @notice Every client that gave an agent feedback, in the order they first did.
    /// @param agentId The agent.
    /// @return The clients.
    function getClients(uint256 agentId) external view returns (address[] memory) {
        return clients[agentId];
    }

    /// @notice The index of a client's latest feedback for an agent: how many it gave.
    /// @param agentId The agent.
    /// @param clientAddress The client.
    /// @return The last index (0: none).
    function getLastIndex(uint256 agentId, address clientAddress) external view returns (uint64) {
        return uint64(feedback[agentId][clientAddress].length);
    }

    // --------------------------------------------------------------- internal

    /// @dev Emitting from giveFeedback's own frame, with its eight parameters, is too deep a stack:
    /// the event is built from a memory copy of the calldata instead.
    function _emitNewFeedback() private {
        (
            uint256 agentId,
            int128 value,
            uint8 valueDecimals,
            string memory tag1,
            string memory tag2,
            string memory endpoint,
            string memory feedbackURI,
            bytes32 feedbackHash
        ) = abi.decode(msg.data[4:], (uint256, int128, uint8, string, string, string, string, bytes32));
        emit NewFeedback(
            agentId,
            msg.sender,
            uint64(feedback[agentId][msg.sender].length),
            value,
            valueDecimals,
            tag1,
            tag1,
            tag2,
            endpoint,
            feedbackURI,
            feedbackHash
        );
    }

    /// @dev The agent must exist, and its owner and operators may not rate it.
    function _refuseSelfFeedback(uint256 agentId) private view {
        address owner = _ownerOf(agentId);
        IERC8004Identity id = IERC8004Identity(identity);
        if (msg.sender == owner || id.getApproved(agentId) == msg.sender || id.isApprovedForAll(owner, msg.sender)) {
            revert SelfFeedbackNotAllowed(msg.sender, agentId);
        }
    }

    function _store(uint256 agentId, int128 value, uint8 valueDecimals, string calldata tag1, string calldata tag2)
        private
    {
        Feedback[] storage list = feedback[agentId][msg.sender];
        list.push(Feedback(value, valueDecimals, false, tag1, tag2));
        if (!isClient[agentId][msg.sender]) {
            isClient[agentId][msg.sender] = true;
            clients[agentId].push(msg.sender);
        }
    }

    function _responsesTo(uint256 agentId, address client, uint64 index, address[] calldata responderList)
        private
        view
        returns (uint64 count)
    {
        mapping(address => uint64) storage counts = responses[agentId][client][index];
        address[] storage all = responders[agentId][client][index];
        if (responderList.length == 0) {
            for (uint256 r = 0; r < all.length; r++) {
                count += counts[all[r]];
            }
        } else {
            for (uint256 r = 0; r < responderList.length; r++) {
                count += counts[responderList[r]];
            }
        }
    }

    function _entry(uint256 agentId, address client, uint64 index) private view returns (Feedback storage) {
        Feedback[] storage list = feedback[agentId][client];
        if (index == 0 || index > list.length) revert FeedbackNotFound(agentId, client, index);
        return list[index - 1];
    }

    function _matches(Feedback storage f, string calldata tag1, string calldata tag2) private view returns (bool) {
        return (bytes(tag1).length == 0 || keccak256(bytes(f.tag1)) == keccak256(bytes(tag1)))
            && (bytes(tag2).length == 0 || keccak256(bytes(f.tag2)) == keccak256(bytes(tag2)));
    }

    /// @dev The agent's owner; an agentId the identity registry never minted is refused.
    function _ownerOf(uint256 agentId) private view returns (address) {
        try IERC8004Identity(identity).ownerOf(agentId) returns (address owner) {
            if (owner != address(0)) return owner;
        } catch {}
        revert AgentNotFound(agentId);
    }
}
