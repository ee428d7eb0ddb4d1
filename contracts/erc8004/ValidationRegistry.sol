// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC8004Identity} from "../interfaces/IERC8004Identity.sol";

/// @title ERC-8004 Validation Registry.
/// @notice An agent's owner (or operator) asks a validator to check its work (`validationRequest`,
/// naming the validator and a request hash that commits to the request's content); the named
/// validator alone answers (`validationResponse`, 0 to 100, as often as it likes: the latest answer
/// stands). docket's court evaluator is such a validator: when a case born from a job ends it
/// answers the provider's request for that job with the ruling (100 the provider won, 0 it lost).
/// Beyond the standard, a request is keyed by its agent and its hash, not by the hash alone: a hash
/// anyone can predict (the evaluator's is) cannot be taken first by another agent to block the
/// agent it was made for. The standard's hash-only calls (`validationResponse`,
/// `getValidationStatus`) address the one request with that hash and revert `RequestAmbiguous` when
/// several agents filed it; `validationResponseFor` and `getAgentValidationStatus` name the agent.
contract ValidationRegistry {
    /// @notice The identity registry has no agent with this id.
    /// @param agentId The id given.
    error AgentNotFound(uint256 agentId);
    /// @notice Only the agent's owner, its approved address or an operator may ask for validation.
    /// @param caller The caller.
    /// @param agentId The agent.
    error NotAuthorized(address caller, uint256 agentId);
    /// @notice The validator may not be the zero address.
    error InvalidValidator();
    /// @notice The agent filed a request with this hash already; an agent uses a request hash once.
    /// @param requestHash The hash given.
    error RequestExists(bytes32 requestHash);
    /// @notice Several agents filed requests with this hash: name the agent (`validationResponseFor`,
    /// `getAgentValidationStatus`).
    /// @param requestHash The hash given.
    error RequestAmbiguous(bytes32 requestHash);
    /// @notice No request has this hash.
    /// @param requestHash The hash given.
    error UnknownRequest(bytes32 requestHash);
    /// @notice Only the validator the request names may answer it.
    /// @param caller The caller.
    error NotValidator(address caller);
    /// @notice An answer is 0 to 100.
    /// @param response The answer given.
    error ResponseOutOfRange(uint8 response);

    /// @notice An agent asked a validator to validate its work.
    /// @param validatorAddress The validator asked.
    /// @param agentId The agent whose work it is.
    /// @param requestURI Where the request's content is.
    /// @param requestHash The commitment to that content, the request's key.
    event ValidationRequest(
        address indexed validatorAddress, uint256 indexed agentId, string requestURI, bytes32 indexed requestHash
    );

    /// @notice A validator answered a request.
    /// @param validatorAddress The validator.
    /// @param agentId The agent.
    /// @param requestHash The request.
    /// @param response 0 (failed) to 100 (passed).
    /// @param responseURI Where the answer's evidence is.
    /// @param responseHash A commitment to that evidence.
    /// @param tag A free label (e.g. "docket-ruling").
    event ValidationResponse(
        address indexed validatorAddress,
        uint256 indexed agentId,
        bytes32 indexed requestHash,
        uint8 response,
        string responseURI,
        bytes32 responseHash,
        string tag
    );

    struct Status {
        address validatorAddress;
        uint8 response;
        bytes32 responseHash;
        string tag;
        uint256 lastUpdate;
        bool hasResponse;
    }

    IERC8004Identity private immutable identity;
    mapping(uint256 agentId => mapping(bytes32 requestHash => Status)) private statuses;
    /// @dev How many agents filed each hash, and the first of them (what the hash-only calls address).
    mapping(bytes32 requestHash => uint256) private filers;
    mapping(bytes32 requestHash => uint256) private firstAgent;
    mapping(uint256 => bytes32[]) private byAgent;
    mapping(address => bytes32[]) private byValidator;

    /// @param identityRegistry The ERC-8004 Identity Registry whose agents ask.
    constructor(IERC8004Identity identityRegistry) {
        identity = identityRegistry;
    }

    /// @notice The Identity Registry this registry's agents live in.
    /// @return The registry's address.
    function getIdentityRegistry() external view returns (address) {
        return address(identity);
    }

    /// @notice The agent's owner or operator asks `validatorAddress` to validate its work.
    /// @param validatorAddress The validator (a contract or an account); it alone may answer.
    /// @param agentId The agent.
    /// @param requestURI Where the request's content is.
    /// @param requestHash The commitment to that content; with `agentId`, the request's key.
    function validationRequest(address validatorAddress, uint256 agentId, string calldata requestURI, bytes32 requestHash)
        external
    {
        if (validatorAddress == address(0)) revert InvalidValidator();
        address owner = _owner(agentId);
        if (msg.sender != owner && identity.getApproved(agentId) != msg.sender && !identity.isApprovedForAll(owner, msg.sender)) {
            revert NotAuthorized(msg.sender, agentId);
        }
        Status storage s = statuses[agentId][requestHash];
        if (s.validatorAddress != address(0)) revert RequestExists(requestHash);
        if (filers[requestHash]++ == 0) firstAgent[requestHash] = agentId;
        s.validatorAddress = validatorAddress;
        s.lastUpdate = block.timestamp;
        byAgent[agentId].push(requestHash);
        byValidator[validatorAddress].push(requestHash);
        emit ValidationRequest(validatorAddress, agentId, requestURI, requestHash);
    }

    /// @notice The request's validator answers it (again, if it likes: the latest answer stands).
    /// @param requestHash The request (reverts `RequestAmbiguous` when several agents filed this hash).
    /// @param response 0 (failed) to 100 (passed).
    /// @param responseURI Where the answer's evidence is.
    /// @param responseHash A commitment to that evidence.
    /// @param tag A free label.
    function validationResponse(
        bytes32 requestHash,
        uint8 response,
        string calldata responseURI,
        bytes32 responseHash,
        string calldata tag
    ) external {
        validationResponseFor(_soleAgent(requestHash), requestHash, response, responseURI, responseHash, tag);
    }

    /// @notice The request's validator answers agent `agentId`'s request `requestHash`.
    /// @param agentId The agent that filed the request.
    /// @param requestHash The request.
    /// @param response 0 (failed) to 100 (passed).
    /// @param responseURI Where the answer's evidence is.
    /// @param responseHash A commitment to that evidence.
    /// @param tag A free label.
    function validationResponseFor(
        uint256 agentId,
        bytes32 requestHash,
        uint8 response,
        string calldata responseURI,
        bytes32 responseHash,
        string calldata tag
    ) public {
        Status storage s = statuses[agentId][requestHash];
        if (s.validatorAddress == address(0)) revert UnknownRequest(requestHash);
        if (msg.sender != s.validatorAddress) revert NotValidator(msg.sender);
        if (response > 100) revert ResponseOutOfRange(response);
        s.response = response;
        s.responseHash = responseHash;
        s.tag = tag;
        s.lastUpdate = block.timestamp;
        s.hasResponse = true;
        emit ValidationResponse(msg.sender, agentId, requestHash, response, responseURI, responseHash, tag);
    }

    /// @notice One request and its latest answer.
    /// @param requestHash The request (reverts `RequestAmbiguous` when several agents filed this hash).
    /// @return validatorAddress The validator asked.
    /// @return agentId The agent.
    /// @return response The latest answer (0 until answered).
    /// @return responseHash The latest answer's evidence commitment.
    /// @return tag The latest answer's label.
    /// @return lastUpdate When it was asked or last answered.
    function getValidationStatus(bytes32 requestHash)
        external
        view
        returns (
            address validatorAddress,
            uint256 agentId,
            uint8 response,
            bytes32 responseHash,
            string memory tag,
            uint256 lastUpdate
        )
    {
        return getAgentValidationStatus(_soleAgent(requestHash), requestHash);
    }

    /// @notice Agent `agentId`'s request `requestHash` and its latest answer.
    /// @param agentId The agent that filed the request.
    /// @param requestHash The request.
    /// @return validatorAddress The validator asked.
    /// @return agent The agent (`agentId`).
    /// @return response The latest answer (0 until answered).
    /// @return responseHash The latest answer's evidence commitment.
    /// @return tag The latest answer's label.
    /// @return lastUpdate When it was asked or last answered.
    function getAgentValidationStatus(uint256 agentId, bytes32 requestHash)
        public
        view
        returns (
            address validatorAddress,
            uint256 agent,
            uint8 response,
            bytes32 responseHash,
            string memory tag,
            uint256 lastUpdate
        )
    {
        Status storage s = statuses[agentId][requestHash];
        if (s.validatorAddress == address(0)) revert UnknownRequest(requestHash);
        return (s.validatorAddress, agentId, s.response, s.responseHash, s.tag, s.lastUpdate);
    }

    /// @notice Whether agent `agentId`'s request was filed and answered (beyond the standard:
    /// `response` 0 is also "failed").
    /// @param agentId The agent.
    /// @param requestHash The request.
    /// @return exists Whether it was asked.
    /// @return answered Whether its validator answered it.
    function isAnswered(uint256 agentId, bytes32 requestHash) external view returns (bool exists, bool answered) {
        Status storage s = statuses[agentId][requestHash];
        return (s.validatorAddress != address(0), s.hasResponse);
    }

    /// @notice How many answered requests of `agentId` match, and their average answer.
    /// @param agentId The agent.
    /// @param validatorAddresses Only these validators' answers (empty: any validator's).
    /// @param tag Only answers with this label (empty: any).
    /// @return count Answers counted.
    /// @return avgResponse Their average (0 when none).
    function getSummary(uint256 agentId, address[] calldata validatorAddresses, string calldata tag)
        external
        view
        returns (uint64 count, uint8 avgResponse)
    {
        bytes32[] storage hashes = byAgent[agentId];
        bytes32 tagHash = keccak256(bytes(tag));
        uint256 total = 0;
        for (uint256 i = 0; i < hashes.length; i++) {
            Status storage s = statuses[agentId][hashes[i]];
            if (!s.hasResponse) continue;
            if (bytes(tag).length != 0 && keccak256(bytes(s.tag)) != tagHash) continue;
            if (validatorAddresses.length != 0 && !_listed(validatorAddresses, s.validatorAddress)) continue;
            count++;
            total += s.response;
        }
        if (count != 0) avgResponse = uint8(total / count);
    }

    /// @notice Every request `agentId` made, oldest first.
    /// @param agentId The agent.
    /// @return requestHashes Their hashes.
    function getAgentValidations(uint256 agentId) external view returns (bytes32[] memory requestHashes) {
        return byAgent[agentId];
    }

    /// @notice Every request made to `validatorAddress`, oldest first.
    /// @param validatorAddress The validator.
    /// @return requestHashes Their hashes.
    function getValidatorRequests(address validatorAddress) external view returns (bytes32[] memory requestHashes) {
        return byValidator[validatorAddress];
    }

    /// @dev The agent of the one request filed with `requestHash` (unknown: none; ambiguous: several).
    function _soleAgent(bytes32 requestHash) private view returns (uint256) {
        uint256 n = filers[requestHash];
        if (n == 0) revert UnknownRequest(requestHash);
        if (n > 1) revert RequestAmbiguous(requestHash);
        return firstAgent[requestHash];
    }

    function _owner(uint256 agentId) private view returns (address owner) {
        try identity.ownerOf(agentId) returns (address o) {
            owner = o;
        } catch {
            revert AgentNotFound(agentId);
        }
    }

    function _listed(address[] calldata list, address who) private pure returns (bool) {
        for (uint256 i = 0; i < list.length; i++) {
            if (list[i] == who) return true;
        }
        return false;
    }
}
