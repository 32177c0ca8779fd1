// SPDX-License-Identifier: AGPL-3.0-only
// A minimal ERC-20 for the in-process local chain (tests and `npm start` only): the deployer
// mints; `transfer` moves exact amounts. No `approve`/`transferFrom`: nothing in Candor needs
// an allowance, so none can be granted (no unlimited approvals by construction).
pragma solidity 0.8.37;

contract TestToken {
    string public constant name = "Local test USDT";
    string public constant symbol = "tUSDT";
    uint8 public constant decimals = 6;
    address public immutable minter;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;

    event Transfer(address indexed from, address indexed to, uint256 value);

    constructor() {
        minter = msg.sender;
    }

    function mint(address to, uint256 value) external {
        require(msg.sender == minter, "not minter");
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        require(to != address(0), "zero address");
        uint256 held = balanceOf[msg.sender];
        require(held >= value, "balance");
        balanceOf[msg.sender] = held - value;
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }
}
