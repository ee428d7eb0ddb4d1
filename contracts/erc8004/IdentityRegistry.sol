// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IAgentWalletIndex} from "../interfaces/IAgentWalletIndex.sol";
import {MetadataEntry} from "../interfaces/IERC8004Identity.sol";
import {IERC1271} from "../interfaces/IERC1271.sol";
import {IERC721Receiver} from "../interfaces/IERC721Receiver.sol";

/// @title ERC-8004 Identity Registry.
/// @notice Each agent is an ERC-721 token: its id is the agentId, its tokenURI the agentURI (the
/// agent's registration file), its owner the agent's owner. On-chain metadata is free-form key to
/// bytes, except the reserved `agentWallet`: the owner's address at registration, changed only with
/// the new wallet's EIP-712 (or ERC-1271) consent, cleared on transfer.
/// @dev Beyond the standard, `agentIdOf(wallet)` indexes agents by their agent wallet (the latest
/// agent to take that wallet), so a contract or a gateway can find an address's agent in one call.
contract IdentityRegistry is IAgentWalletIndex {
    /// @notice ERC-721 metadata: the collection's name.
    /// @return The name.
    string public constant name = "ERC-8004 Agent Identity";
    /// @notice ERC-721 metadata: the collection's symbol.
    /// @return The symbol.
    string public constant symbol = "AGENT";
    /// @notice The reserved metadata key of the agent's wallet, set only through `setAgentWallet`.
    /// @return The key.
    string public constant AGENT_WALLET_KEY = "agentWallet";
    /// @notice The wallet's consent names its current `walletNonce`, so each consent is used at most
    /// once and any later claim of the wallet (a consent used, its own registration) voids the rest.
    /// @return The EIP-712 type hash of `AgentWalletSet`.
    bytes32 public constant AGENT_WALLET_TYPEHASH = keccak256(
        "AgentWalletSet(uint256 agentId,address newWallet,address owner,uint256 nonce,uint256 deadline)"
    );
    /// @notice The EIP-712 domain a wallet's consent is signed in (name, version "1", chain, this contract).
    /// @return The domain separator.
    bytes32 public immutable DOMAIN_SEPARATOR;

    /// @notice No agent has this id.
    /// @param agentId The id given.
    error AgentNotFound(uint256 agentId);
    /// @notice The caller is not the agent's owner, its approved address or an operator of the owner.
    /// @param caller The caller.
    /// @param agentId The agent.
    error NotAuthorized(address caller, uint256 agentId);
    /// @notice `agentWallet` is set only through `setAgentWallet`, never as plain metadata.
    /// @param key The key given.
    error ReservedMetadataKey(string key);
    /// @notice The zero address owns no agent and receives none.
    /// @param to The address given.
    error InvalidRecipient(address to);
    /// @notice `from` is not the agent's owner.
    /// @param from The address given as the owner.
    error WrongOwner(address from);
    /// @notice The wallet's consent is past its deadline.
    /// @param deadline The consent's deadline.
    error SignatureExpired(uint256 deadline);
    /// @notice The signature is not the new wallet's consent (wrong signer, nonce, owner or agent).
    error InvalidWalletSignature();
    /// @notice The recipient contract did not accept the token (ERC-721 `onERC721Received`).
    /// @param to The recipient.
    error UnsafeRecipient(address to);

    /// @notice ERC-721: an agent changed owner (from zero: registered).
    /// @param from The previous owner (zero when minted).
    /// @param to The new owner.
    /// @param tokenId The agent id.
    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    /// @notice ERC-721: the owner approved an address to transfer one agent.
    /// @param owner The agent's owner.
    /// @param approved The approved address (zero: none).
    /// @param tokenId The agent id.
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    /// @notice ERC-721: an owner allowed or disallowed an operator over all its agents.
    /// @param owner The owner.
    /// @param operator The operator.
    /// @param approved Whether it is allowed now.
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);
    /// @notice ERC-8004: an agent was registered.
    /// @param agentId Its id.
    /// @param agentURI Its registration file's URI.
    /// @param owner Who registered it (its owner and first wallet).
    event Registered(uint256 indexed agentId, string agentURI, address indexed owner);
    /// @notice ERC-8004: an agent's URI changed.
    /// @param agentId The agent.
    /// @param newURI Its URI now.
    /// @param updatedBy Who changed it.
    event URIUpdated(uint256 indexed agentId, string newURI, address indexed updatedBy);
    /// @notice ERC-8004: an agent's metadata entry was set (for `agentWallet`: the wallet's 20
    /// bytes, or empty when cleared).
    /// @param agentId The agent.
    /// @param indexedMetadataKey The key, indexed (its hash in the log topic).
    /// @param metadataKey The key.
    /// @param metadataValue The value now.
    event MetadataSet(uint256 indexed agentId, string indexed indexedMetadataKey, string metadataKey, bytes metadataValue);

    /// @notice Agents minted so far; ids run from 1 to this.
    /// @return The count.
    uint256 public totalAgents;

    mapping(uint256 => address) private owners;
    mapping(address => uint256) private balances;
    mapping(uint256 => address) private approvals;
    mapping(address => mapping(address => bool)) private operators;
    mapping(uint256 => string) private uris;
    mapping(uint256 => mapping(string => bytes)) private metadata;
    mapping(uint256 => address) private wallets;
    mapping(address => uint256) private agentOfWallet;
    /// @notice The nonce a wallet's next consent must name; it grows each time the wallet is claimed.
    /// @return The nonce.
    mapping(address => uint256) public walletNonce;

    constructor() {
        DOMAIN_SEPARATOR = keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256(bytes(name)),
                keccak256("1"),
                block.chainid,
                address(this)
            )
        );
    }

    modifier onlyController(uint256 agentId) {
        if (!_isController(msg.sender, agentId)) revert NotAuthorized(msg.sender, agentId);
        _;
    }

    // ------------------------------------------------------------- ERC-8004

    /// @notice Registers a new agent owned by the caller, with its URI and metadata entries; the
    /// caller is also its first agent wallet.
    /// @param agentURI The agent's registration file's URI.
    /// @param entries Metadata entries to set (not the reserved `agentWallet`).
    /// @return agentId The new agent's id.
    function register(string calldata agentURI, MetadataEntry[] calldata entries) external returns (uint256 agentId) {
        agentId = _mint(agentURI);
        for (uint256 i = 0; i < entries.length; i++) {
            _setMetadata(agentId, entries[i].metadataKey, entries[i].metadataValue);
        }
        emit Registered(agentId, agentURI, msg.sender);
    }

    /// @notice Registers a new agent owned by the caller, with its URI; the caller is also its first
    /// agent wallet.
    /// @param agentURI The agent's registration file's URI.
    /// @return agentId The new agent's id.
    function register(string calldata agentURI) external returns (uint256 agentId) {
        agentId = _mint(agentURI);
        emit Registered(agentId, agentURI, msg.sender);
    }

    /// @notice Registers a new agent owned by the caller, with no URI yet; the caller is also its
    /// first agent wallet.
    /// @return agentId The new agent's id.
    function register() external returns (uint256 agentId) {
        agentId = _mint("");
        emit Registered(agentId, "", msg.sender);
    }

    /// @notice Changes an agent's URI; its owner, approved address or an operator.
    /// @param agentId The agent.
    /// @param newURI Its URI now.
    function setAgentURI(uint256 agentId, string calldata newURI) external onlyController(agentId) {
        uris[agentId] = newURI;
        emit URIUpdated(agentId, newURI, msg.sender);
    }

    /// @notice Sets one metadata entry of an agent (not `agentWallet`); its owner, approved address
    /// or an operator.
    /// @param agentId The agent.
    /// @param metadataKey The key.
    /// @param metadataValue The value.
    function setMetadata(uint256 agentId, string calldata metadataKey, bytes calldata metadataValue)
        external
        onlyController(agentId)
    {
        _setMetadata(agentId, metadataKey, metadataValue);
    }

    /// @notice One metadata entry of an agent; `agentWallet` reads as the wallet's 20 bytes (empty if none).
    /// @param agentId The agent.
    /// @param metadataKey The key.
    /// @return The value (empty if never set).
    function getMetadata(uint256 agentId, string calldata metadataKey) external view returns (bytes memory) {
        _requireMinted(agentId);
        if (_isWalletKey(metadataKey)) {
            address w = wallets[agentId];
            return w == address(0) ? bytes("") : abi.encodePacked(w);
        }
        return metadata[agentId][metadataKey];
    }

    /// @notice Points the agent's wallet at `newWallet`, which consents by signing the EIP-712
    /// `AgentWalletSet(agentId, newWallet, owner, nonce, deadline)` with its current `walletNonce`
    /// (a contract wallet through ERC-1271). The wallet leaves any other agent that had it.
    /// @param agentId The agent.
    /// @param newWallet The wallet.
    /// @param deadline The consent's deadline.
    /// @param signature The wallet's signature (65 bytes r ‖ s ‖ v, or what its ERC-1271 accepts).
    function setAgentWallet(uint256 agentId, address newWallet, uint256 deadline, bytes calldata signature)
        external
        onlyController(agentId)
    {
        if (block.timestamp > deadline) revert SignatureExpired(deadline);
        bytes32 digest = keccak256(
            abi.encodePacked(
                "\x19\x01",
                DOMAIN_SEPARATOR,
                keccak256(
                    abi.encode(
                        AGENT_WALLET_TYPEHASH, agentId, newWallet, owners[agentId], walletNonce[newWallet], deadline
                    )
                )
            )
        );
        if (!_signedBy(newWallet, digest, signature)) revert InvalidWalletSignature();
        _setWallet(agentId, newWallet);
    }

    /// @notice Clears an agent's wallet; its owner, approved address or an operator.
    /// @param agentId The agent.
    function unsetAgentWallet(uint256 agentId) external onlyController(agentId) {
        _setWallet(agentId, address(0));
    }

    /// @notice An agent's wallet: where payments to it go, proven by the wallet's consent.
    /// @param agentId The agent.
    /// @return The wallet (zero if none).
    function getAgentWallet(uint256 agentId) external view returns (address) {
        _requireMinted(agentId);
        return wallets[agentId];
    }

    /// @inheritdoc IAgentWalletIndex
    function agentIdOf(address wallet) external view returns (uint256) {
        return wallet == address(0) ? 0 : agentOfWallet[wallet];
    }

    // -------------------------------------------------------------- ERC-721

    /// @notice ERC-721: how many agents `owner` owns.
    /// @param owner The owner (not zero).
    /// @return The count.
    function balanceOf(address owner) external view returns (uint256) {
        if (owner == address(0)) revert InvalidRecipient(owner);
        return balances[owner];
    }

    /// @notice ERC-721: an agent's owner.
    /// @param agentId The agent.
    /// @return The owner.
    function ownerOf(uint256 agentId) public view returns (address) {
        return _requireMinted(agentId);
    }

    /// @notice ERC-721 metadata: an agent's URI (its registration file).
    /// @param agentId The agent.
    /// @return The URI.
    function tokenURI(uint256 agentId) external view returns (string memory) {
        _requireMinted(agentId);
        return uris[agentId];
    }

    /// @notice ERC-721: lets `to` transfer (and control) one agent; its owner or an operator.
    /// @param to The approved address (zero: none).
    /// @param agentId The agent.
    function approve(address to, uint256 agentId) external {
        address owner = _requireMinted(agentId);
        if (msg.sender != owner && !operators[owner][msg.sender]) revert NotAuthorized(msg.sender, agentId);
        approvals[agentId] = to;
        emit Approval(owner, to, agentId);
    }

    /// @notice ERC-721: the address approved for an agent.
    /// @param agentId The agent.
    /// @return The approved address (zero: none).
    function getApproved(uint256 agentId) external view returns (address) {
        _requireMinted(agentId);
        return approvals[agentId];
    }

    /// @notice ERC-721: allows or disallows `operator` over all the caller's agents.
    /// @param operator The operator.
    /// @param approved Whether it is allowed.
    function setApprovalForAll(address operator, bool approved) external {
        operators[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    /// @notice ERC-721: whether `operator` may act for all of `owner`'s agents.
    /// @param owner The owner.
    /// @param operator The operator.
    /// @return True when allowed.
    function isApprovedForAll(address owner, address operator) external view returns (bool) {
        return operators[owner][operator];
    }

    /// @notice ERC-721: moves an agent from `from` to `to`; its owner, approved address or an
    /// operator. The agent's wallet is cleared: the new owner sets (and proves) its own.
    /// @param from The agent's owner.
    /// @param to The new owner (not zero).
    /// @param agentId The agent.
    function transferFrom(address from, address to, uint256 agentId) public {
        if (!_isController(msg.sender, agentId)) revert NotAuthorized(msg.sender, agentId);
        if (owners[agentId] != from) revert WrongOwner(from);
        if (to == address(0)) revert InvalidRecipient(to);
        delete approvals[agentId];
        balances[from] -= 1;
        balances[to] += 1;
        owners[agentId] = to;
        // The wallet was the old owner's choice: the new owner must set (and prove) its own.
        _setWallet(agentId, address(0));
        emit Transfer(from, to, agentId);
    }

    /// @notice ERC-721: `transferFrom`, then a contract recipient must accept through `onERC721Received`.
    /// @param from The agent's owner.
    /// @param to The new owner (not zero).
    /// @param agentId The agent.
    function safeTransferFrom(address from, address to, uint256 agentId) external {
        safeTransferFrom(from, to, agentId, "");
    }

    /// @notice ERC-721: `transferFrom`, then a contract recipient must accept through `onERC721Received`.
    /// @param from The agent's owner.
    /// @param to The new owner (not zero).
    /// @param agentId The agent.
    /// @param data Passed to the recipient's `onERC721Received`.
    function safeTransferFrom(address from, address to, uint256 agentId, bytes memory data) public {
        transferFrom(from, to, agentId);
        if (to.code.length > 0) {
            try IERC721Receiver(to).onERC721Received(msg.sender, from, agentId, data) returns (bytes4 ret) {
                if (ret != IERC721Receiver.onERC721Received.selector) revert UnsafeRecipient(to);
            } catch {
                revert UnsafeRecipient(to);
            }
        }
    }

    /// @notice ERC-165: whether this contract implements an interface (ERC-165, ERC-721, ERC-721 metadata).
    /// @param id The interface id.
    /// @return True when implemented.
    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x01ffc9a7 || id == 0x80ac58cd || id == 0x5b5e139f; // ERC-165, ERC-721, metadata
    }

    // ------------------------------------------------------------- internal

    function _mint(string memory agentURI) private returns (uint256 agentId) {
        agentId = ++totalAgents;
        owners[agentId] = msg.sender;
        balances[msg.sender] += 1;
        uris[agentId] = agentURI;
        emit Transfer(address(0), msg.sender, agentId);
        _setWallet(agentId, msg.sender);
    }

    function _setMetadata(uint256 agentId, string calldata key, bytes calldata value) private {
        if (_isWalletKey(key)) revert ReservedMetadataKey(key);
        metadata[agentId][key] = value;
        emit MetadataSet(agentId, key, key, value);
    }

    /// @dev A wallet belongs to one agent at a time: claiming it (a consent, or registering an agent
    /// from it) takes it from the agent that had it and spends its nonce, voiding every consent it
    /// signed before. The index points at the agent that has each wallet.
    function _setWallet(uint256 agentId, address wallet) private {
        address old = wallets[agentId];
        if (old != address(0) && agentOfWallet[old] == agentId) delete agentOfWallet[old];
        if (wallet != address(0)) {
            uint256 previous = agentOfWallet[wallet];
            if (previous != 0 && previous != agentId) _writeWallet(previous, address(0));
            agentOfWallet[wallet] = agentId;
            walletNonce[wallet] += 1;
        }
        _writeWallet(agentId, wallet);
    }

    function _writeWallet(uint256 agentId, address wallet) private {
        wallets[agentId] = wallet;
        emit MetadataSet(
            agentId,
            AGENT_WALLET_KEY,
            AGENT_WALLET_KEY,
            wallet == address(0) ? bytes("") : abi.encodePacked(wallet)
        );
    }

    function _requireMinted(uint256 agentId) private view returns (address owner) {
        owner = owners[agentId];
        if (owner == address(0)) revert AgentNotFound(agentId);
    }

    /// @dev The owner, the token's approved address, or one of the owner's operators.
    function _isController(address who, uint256 agentId) private view returns (bool) {
        address owner = _requireMinted(agentId);
        return who == owner || approvals[agentId] == who || operators[owner][who];
    }

    function _isWalletKey(string calldata key) private pure returns (bool) {
        return keccak256(bytes(key)) == keccak256(bytes(AGENT_WALLET_KEY));
    }

    function _signedBy(address signer, bytes32 digest, bytes calldata signature) private view returns (bool) {
        if (signer == address(0)) return false;
        if (signer.code.length > 0) {
            try IERC1271(signer).isValidSignature(digest, signature) returns (bytes4 magic) {
                return magic == IERC1271.isValidSignature.selector;
            } catch {
                return false;
            }
        }
        if (signature.length != 65) return false;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        // Only the lower half of s: a signature and its malleated twin are one consent, not two.
        if (uint256(s) > 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0) return false;
        return ecrecover(digest, v, r, s) == signer;
    }
}
